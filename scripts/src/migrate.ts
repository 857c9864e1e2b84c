/**
 * `pnpm migrate`: applies pending migrations (packages/db migrator) and logs each
 * one it applied. Exits 1 when a migration fails or PostgreSQL cannot be reached.
 */
import { loadConfigOrExit } from '@leadhook/config';
import { MIGRATIONS_DIR, migrate } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'migrate', level: config.logLevel });
try {
  const applied = await migrate({ databaseUrl: config.databaseUrl, migrationsDir: MIGRATIONS_DIR });
  for (const migration of applied) logger.info({ migration }, 'migration applied');
  logger.info({ applied: applied.length }, applied.length ? 'migrations applied' : 'up to date');
} catch (err) {
  logger.fatal({ err }, 'migrations failed');
  process.exitCode = 1;
}
