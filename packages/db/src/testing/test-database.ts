import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, readMigrations } from '../migrator.js';
import { MIGRATIONS_DIR } from '../paths.js';

/** The server tests create their databases on (any database there will do). */
export const TEST_ADMIN_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * The migrated template each test file clones. Its name carries a hash of the
 * migration files, so a changed migration makes a new template and an unchanged
 * one is migrated once, by whichever test file gets there first.
 */
export const TEMPLATE_DATABASE = `leadhook_tpl_${createHash('sha256')
  .update(
    readMigrations(MIGRATIONS_DIR)
      .map((m) => `${m.name}:${m.checksum}`)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 12)}`;

/** Arbitrary advisory-lock key: one process migrates the template at a time. */
const TEMPLATE_LOCK_KEY = 7_245_190_332;

async function ensureTemplate(admin: pg.Client): Promise<void> {
  const exists = async () =>
    (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE_DATABASE]))
      .rowCount === 1;
  if (await exists()) return;
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
  try {
    if (await exists()) return;
    // Migrate under a scratch name and rename at the end, so no clone ever sees a
    // half-migrated template.
    const scratch = `${TEMPLATE_DATABASE}_wip`;
    await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${scratch}"`);
    await migrate({ databaseUrl: databaseUrl(scratch), migrationsDir: MIGRATIONS_DIR });
    await admin.query(`ALTER DATABASE "${scratch}" RENAME TO "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
  }
}

export const TEST_DATABASE_PREFIX = 'leadhook_t_';

export function databaseUrl(name: string): string {
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a clone of the template, which is
 * far faster than migrating again.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  // The creation time in the name lets a later run drop what an interrupted one
  // left behind without touching databases of a run still in progress.
  const name = `${TEST_DATABASE_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(async (admin) => {
    await ensureTemplate(admin);
    // Two clones of one template at the same instant can collide on the template's
    // lock ("being accessed by other users"): retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`);
        return;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdmin(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  };
}
