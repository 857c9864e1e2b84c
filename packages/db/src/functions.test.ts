import pg from 'pg';
import {
  applyFunctionFiles,
  type CatalogDifference,
  compareCatalogs,
  type FunctionFile,
  functionsMigration,
  readCatalog,
  readFunctionFiles,
  tryFunctionsMigration,
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
        'function webhook_redeliver(text,text,timestamp with time zone)',
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

  test('pnpm db:diff --functions: the migration for changed files drops what CREATE OR REPLACE cannot change', async () => {
    const edits: Record<string, [string, string]> = {
      // A new argument: a new signature, the old function dropped.
      'prisma/functions/webhook/webhook_disable.sql': [
        'p_now timestamptz)\nRETURNS boolean',
        'p_now timestamptz, p_by text DEFAULT NULL)\nRETURNS boolean',
      ],
      // A type is dropped with CASCADE, and the functions that return it are written again.
      'prisma/functions/webhook/webhook_step.sql': ['  note text,\n', '  remark text,\n'],
    };
    const edited: FunctionFile[] = readFunctionFiles(FUNCTIONS_DIR)
      // A deleted file: its function is dropped.
      .filter((f) => f.path !== 'prisma/functions/webhook/webhook_chain_lock.sql')
      .map((f) => {
        const edit = edits[f.path];
        if (!edit) return f;
        expect(f.sql).toContain(edit[0]);
        return { ...f, sql: f.sql.replace(edit[0], edit[1]) };
      });
    edited.push({
      path: 'prisma/functions/common/leadhook_added.sql',
      sql: 'CREATE OR REPLACE FUNCTION leadhook_added() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT 1 $$;\n',
      isType: false,
    });
    // An added trigger, with its function.
    edited.push({
      path: 'prisma/functions/webhook/deliveries_touched.sql',
      sql: `CREATE OR REPLACE FUNCTION deliveries_touched() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN NEW.updated_at := now(); RETURN NEW; END $$;
CREATE OR REPLACE TRIGGER deliveries_touched BEFORE UPDATE ON deliveries
FOR EACH ROW EXECUTE FUNCTION deliveries_touched();
`,
      isType: false,
    });
    const scratch = await createTestDatabase();
    const client = await connect(scratch);
    try {
      const editedCreated = await applyFunctionFiles(client, edited);
      const wanted = await readCatalog(client);
      const migration = functionsMigration({
        files: edited,
        created: editedCreated,
        migrated: await readCatalog(migrations),
        wanted,
      });
      expect(migration?.drops.sort()).toEqual([
        'DROP FUNCTION webhook_chain_lock(text,text);',
        'DROP FUNCTION webhook_disable(text,text,text,timestamp with time zone);',
        'DROP TYPE webhook_step CASCADE;',
      ]);
      expect(migration?.files.map((f) => f.path)).toEqual([
        'prisma/functions/webhook/webhook_step.sql',
        'prisma/functions/webhook/webhook_claim.sql',
        'prisma/functions/webhook/webhook_claimed_steps.sql',
        'prisma/functions/webhook/webhook_disable.sql',
        'prisma/functions/webhook/webhook_record_attempt.sql',
        'prisma/functions/webhook/webhook_record_attempts.sql',
        'prisma/functions/common/leadhook_added.sql',
        'prisma/functions/webhook/deliveries_touched.sql',
      ]);
      // Applied to the migrations' database, it gives what the edited files give.
      expect(await tryFunctionsMigration(migrations, migration?.sql ?? '', wanted)).toEqual([]);
    } finally {
      await client.end();
      await scratch.drop();
    }
  });

  test('pnpm db:diff --functions: nothing to write when the files match the migrations', async () => {
    expect(
      functionsMigration({
        files: readFunctionFiles(FUNCTIONS_DIR),
        created,
        migrated: await readCatalog(migrations),
        wanted: await readCatalog(files),
      }),
    ).toBeNull();
  });
});
