// Runs `prisma generate` at install time. Generation needs no native engine, but
// the CLI probes for one at start and would try to download it: point it at a
// stand-in unless the operator has a real engine installed.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= join(root, 'scripts/bin/no-schema-engine.sh');
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';
const result = spawnSync(join(root, 'node_modules/.bin/prisma'), ['generate'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
