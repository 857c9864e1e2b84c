import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** prisma/ of this checkout (the same from src/ and dist/). */
const PRISMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'prisma');

/** prisma/migrations of this checkout. */
export const MIGRATIONS_DIR = join(PRISMA_DIR, 'migrations');

/** prisma/functions: the SQL routines' current definitions (docs/operations.md, "Migrations"). */
export const FUNCTIONS_DIR = join(PRISMA_DIR, 'functions');
