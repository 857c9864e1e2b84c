import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** prisma/migrations of this checkout (the same from src/ and dist/). */
export const MIGRATIONS_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'prisma',
  'migrations',
);
