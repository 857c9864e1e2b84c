/**
 * `pnpm start`: applies pending migrations, then runs the four services as
 * separate processes under the supervisor. Exits 1 when migrations fail: no
 * service starts against a schema it does not expect.
 */
import { existsSync } from 'node:fs';
import { loadConfigOrExit } from '@leadhook/config';
import { MIGRATIONS_DIR, migrate } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';
import { ROOT, SERVICES, serviceMain } from './paths.js';
import { runSupervisor, Supervisor } from './supervisor.js';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'supervisor', level: config.logLevel });

try {
  const applied = await migrate({ databaseUrl: config.databaseUrl, migrationsDir: MIGRATIONS_DIR });
  for (const migration of applied) logger.info({ migration }, 'migration applied');
} catch (err) {
  logger.fatal({ err }, 'migrations failed; not starting');
  process.exit(1);
}

const missing = SERVICES.filter((name) => !existsSync(serviceMain(name)));
if (missing.length > 0) {
  logger.fatal({ missing }, 'services are not built; run pnpm build');
  process.exit(1);
}

const supervisor = new Supervisor({
  children: SERVICES.map((name) => ({
    name,
    command: process.execPath,
    args: [serviceMain(name)],
    cwd: ROOT,
  })),
  logger,
  // Each child bounds its own drain by SHUTDOWN_TIMEOUT_MS; give it that and a
  // little more before killing it.
  stopTimeoutMs: config.shutdownTimeoutMs + 2000,
});
runSupervisor(supervisor, logger);
