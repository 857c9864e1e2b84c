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
    await ensurePartitions(scratch);
    await admin.query(`ALTER DATABASE "${scratch}" RENAME TO "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
  }
}

/**
 * Days before today whose outbox partitions a test database has
 * (docs/operations.md, "Outbox partitions"): as many as a deployment keeping
 * OUTBOX_RETENTION's default 7 days has, so the hot path's tests run with them
 * present, and tests may write outbox rows of the past days.
 */
export const TEST_OUTBOX_PAST_DAYS = 10;

/**
 * The partitions a worker's partition job would have made by now
 * (packages/worker-runtime, partitions.ts: this month and three ahead, today and
 * seven days ahead), and the outbox's past days: the template may have been
 * migrated on an earlier day, and its partitions are the days of then.
 */
async function ensurePartitions(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(name) });
  await client.connect();
  try {
    await client.query(
      `SELECT (SELECT count(*) FROM leadhook_history_partitions_ensure(now(), now() + interval '3 months'))
            + (SELECT count(*) FROM leadhook_outbox_partitions_ensure(
                 now() - make_interval(days => $1), now() + interval '7 days'))`,
      [TEST_OUTBOX_PAST_DAYS],
    );
  } finally {
    await client.end();
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
  await ensurePartitions(name);
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdmin(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  };
}
