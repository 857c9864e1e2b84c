import pg from 'pg';
import {
  applyFunctionFiles,
  type CatalogDifference,
  compareCatalogs,
  readCatalog,
  readFunctionFiles,
} from './functions.js';
import { FUNCTIONS_DIR } from './paths.js';
import { createTestDatabase, type TestDatabase } from './testing/index.js';

// prisma/functions is the source of truth for the SQL routines and the migrations
// carry copies of it (docs/operations.md, "Migrations"). A file edited without a
// migration generated from it, or a routine made by a migration alone, would
// leave the two apart: this builds a database from the migrations (the test
// template), another from the same migrations with the files applied in their
// place, and compares what PostgreSQL holds of every routine (its whole
// definition: body, settings, arguments, return type, volatility...), composite
// type and trigger.

const HOW_TO_FIX = {
  changed: 'its file differs from the migrations: run pnpm db:diff --functions --name <name>',
  missing: 'no file in prisma/functions creates it',
  added: 'a file creates it, no migration does: run pnpm db:diff --functions --name <name>',
} satisfies Record<CatalogDifference['change'], string>;

async function connect(db: TestDatabase): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  return client;
}

describe('prisma/functions and the migrations', () => {
  let fromMigrations: TestDatabase;
  let fromFiles: TestDatabase;
  let migrations: pg.Client;
  let files: pg.Client;
  let created: Map<string, string[]>;

  beforeAll(async () => {
    [fromMigrations, fromFiles] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    [migrations, files] = await Promise.all([connect(fromMigrations), connect(fromFiles)]);
    created = await applyFunctionFiles(files, readFunctionFiles(FUNCTIONS_DIR));
  });

  afterAll(async () => {
    await Promise.all([migrations?.end(), files?.end()]);
    await Promise.all([fromMigrations?.drop(), fromFiles?.drop()]);
  });

  test('define every routine, type and trigger alike', async () => {
    const migrated = await readCatalog(migrations);
    const differences = compareCatalogs(migrated, await readCatalog(files)).map(
      (d) => `${d.key}: ${HOW_TO_FIX[d.change]}`,
    );
    expect(differences).toEqual([]);
    // The comparison saw the hot path's routines (an empty catalog compares equal).
    expect([...migrated.keys()]).toEqual(
      expect.arrayContaining([
        'function intake_accept_batch(jsonb)',
        'function webhook_fan_out_claims(jsonb,timestamp with time zone,integer)',
        'type webhook_step',
        'trigger deliveries_unqueue_on_status ON deliveries',
      ]),
    );
  });

  test('each file creates something, and each routine comes from one file', () => {
    const owners = new Map<string, string[]>();
    for (const [path, keys] of created) {
      expect({ path, creates: keys.length > 0 }).toEqual({ path, creates: true });
      for (const key of keys) owners.set(key, [...(owners.get(key) ?? []), path]);
    }
    const shared = [...owners].filter(([, paths]) => paths.length > 1);
    expect(shared).toEqual([]);
  });
});
