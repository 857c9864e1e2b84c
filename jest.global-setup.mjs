// Drops the per-file test databases (leadhook_t_<unix seconds>_<random>) that an
// interrupted run left behind more than an hour ago; databases of a run still in
// progress are younger and stay. The migrated template is made on demand by
// createTestDatabase (packages/db/testing).
import pg from 'pg';

const STALE_AFTER_SECONDS = 3600;

export default async function globalSetup() {
  const client = new pg.Client({
    connectionString:
      process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT datname FROM pg_database WHERE datname ~ '^leadhook_t_[0-9]+_'",
    );
    const now = Date.now() / 1000;
    for (const { datname } of rows) {
      const created = Number(datname.split('_')[2]);
      if (now - created > STALE_AFTER_SECONDS) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  } finally {
    await client.end();
  }
}
