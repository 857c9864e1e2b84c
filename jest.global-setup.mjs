// Drops the per-file test databases an interrupted earlier run left behind. The
// migrated template is made on demand by createTestDatabase (packages/db/testing).
import pg from 'pg';

export default async function globalSetup() {
  const client = new pg.Client({
    connectionString:
      process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT datname FROM pg_database WHERE datname LIKE 'leadhook\\_t\\_%'",
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await client.end();
  }
}
