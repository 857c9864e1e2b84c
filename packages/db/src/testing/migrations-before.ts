import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrations } from '../migrator.js';
import { MIGRATIONS_DIR } from '../paths.js';

/**
 * The project's migrations before `name`, as a directory of their own: a
 * migration's test fills a database migrated that far in the old layout, then
 * applies the rest (packages/db/src/*.migration.test.ts).
 */
export function migrationsBefore(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'leadhook-mig-before-'));
  for (const m of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < name)) {
    symlinkSync(join(MIGRATIONS_DIR, m.name), join(dir, m.name));
  }
  return dir;
}
