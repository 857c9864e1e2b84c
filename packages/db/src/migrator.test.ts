import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  COMMENT_EDITS_FILE,
  commentStrippedHash,
  MigrationError,
  migrate,
  readCommentEdits,
  readMigrations,
} from './migrator.js';
import { MIGRATIONS_DIR } from './paths.js';
import { databaseUrl, withAdmin } from './testing/index.js';

async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `leadhook_t_${Math.floor(Date.now() / 1000)}_mig${Math.random().toString(16).slice(2, 10)}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  return {
    url: databaseUrl(name),
    drop: () =>
      withAdmin((admin) => admin.query(`DROP DATABASE "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function migrationsDir(files: Record<string, string>, commentEdits?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'leadhook-mig-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  if (commentEdits) writeFileSync(join(dir, COMMENT_EDITS_FILE), JSON.stringify(commentEdits));
  return dir;
}

/** Migrates the database at `url` with one migration, 001_a, and the comment-edit list if given. */
function migrateA(url: string, sql: string, commentEdits?: object): Promise<string[]> {
  return migrate({
    databaseUrl: url,
    migrationsDir: migrationsDir({ '001_a': sql }, commentEdits),
  });
}

/** The checksums recorded for 001_a. */
async function checksumsOfA(url: string): Promise<string[]> {
  const rows = await query<{ checksum: string }>(
    url,
    'SELECT checksum FROM "_prisma_migrations" WHERE migration_name = \'001_a\'',
  );
  return rows.map((r) => r.checksum);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

describe('migrate', () => {
  it('applies the project migrations once, with Prisma-compatible records', async () => {
    const db = await emptyDatabase();
    try {
      const applied = await migrate({ databaseUrl: db.url, migrationsDir: MIGRATIONS_DIR });
      expect(applied).toEqual(readMigrations(MIGRATIONS_DIR).map((m) => m.name));
      expect(await migrate({ databaseUrl: db.url, migrationsDir: MIGRATIONS_DIR })).toEqual([]);
      const rows = await query<{ migration_name: string; checksum: string; finished_at: Date }>(
        db.url,
        'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(
        readMigrations(MIGRATIONS_DIR).map((m) => [m.name, m.checksum]),
      );
      expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
    } finally {
      await db.drop();
    }
  });

  it('is safe when several processes start at once', async () => {
    const db = await emptyDatabase();
    try {
      const runs = await Promise.all(
        Array.from({ length: 4 }, () =>
          migrate({ databaseUrl: db.url, migrationsDir: MIGRATIONS_DIR }),
        ),
      );
      // Exactly one runner applied everything; the others found nothing pending.
      expect(runs.filter((r) => r.length > 0)).toHaveLength(1);
      const [{ count }] = (await query<{ count: string }>(
        db.url,
        'SELECT count(*) FROM "_prisma_migrations"',
      )) as [{ count: string }];
      expect(Number(count)).toBe(readMigrations(MIGRATIONS_DIR).length);
    } finally {
      await db.drop();
    }
  });

  it('rolls back a failing migration with its record, and refuses an edited one', async () => {
    const db = await emptyDatabase();
    try {
      const ok = { '001_a': 'CREATE TABLE a (id int);' };
      await migrate({ databaseUrl: db.url, migrationsDir: migrationsDir(ok) });

      const failing = migrationsDir({ ...ok, '002_b': 'CREATE TABLE b (id int); SELECT 1/0;' });
      await expect(migrate({ databaseUrl: db.url, migrationsDir: failing })).rejects.toThrow(
        /002_b failed and was rolled back/,
      );
      const tables = await query<{ table_name: string }>(
        db.url,
        "SELECT table_name FROM information_schema.tables WHERE table_name IN ('a','b')",
      );
      expect(tables.map((t) => t.table_name)).toEqual(['a']);

      const edited = migrationsDir({ '001_a': 'CREATE TABLE a (id bigint);' });
      await expect(migrate({ databaseUrl: db.url, migrationsDir: edited })).rejects.toThrow(
        MigrationError,
      );
      await expect(migrate({ databaseUrl: db.url, migrationsDir: edited })).rejects.toThrow(
        /edited after it was applied/,
      );
    } finally {
      await db.drop();
    }
  });

  it('accepts a listed comment-only edit and updates the record, and refuses an SQL edit', async () => {
    const db = await emptyDatabase();
    try {
      const original = '-- Makes a (see an old document).\nCREATE TABLE a (id int);\n';
      await migrateA(db.url, original);
      const edits = {
        '001_a': [{ previous: sha256(original), stripped: commentStrippedHash(original) }],
      };

      // The comment reworded, over two lines now: accepted, the record follows the file.
      const reworded = '-- Makes a\n-- (see docs/operations.md).\nCREATE TABLE a (id int);\n';
      expect(await migrateA(db.url, reworded, edits)).toEqual([]);
      expect(await checksumsOfA(db.url)).toEqual([sha256(reworded)]);
      // Stable from then on, with or without the list.
      expect(await migrateA(db.url, reworded)).toEqual([]);

      // A comment edit not listed is refused.
      const unlisted = '-- Makes a, again.\nCREATE TABLE a (id int);\n';
      await expect(migrateA(db.url, unlisted, edits)).rejects.toThrow(
        /edited after it was applied/,
      );

      // An SQL line edited, even with a matching comment list, is refused.
      const db2 = await emptyDatabase();
      try {
        await migrateA(db2.url, original);
        const sqlEdited = '-- Makes a (see docs/operations.md).\nCREATE TABLE a (id bigint);\n';
        await expect(migrateA(db2.url, sqlEdited, edits)).rejects.toThrow(
          /edited after it was applied/,
        );
        expect(await checksumsOfA(db2.url)).toEqual([sha256(original)]);
      } finally {
        await db2.drop();
      }
    } finally {
      await db.drop();
    }
  });

  it("lists only comment edits the project's migrations still match", () => {
    // An entry whose stripped hash no longer matches its file would let no
    // database through: the file's SQL was changed after the entry was written.
    const files = new Map(readMigrations(MIGRATIONS_DIR).map((m) => [m.name, m]));
    const edits = readCommentEdits(MIGRATIONS_DIR);
    expect(edits.size).toBeGreaterThan(0);
    for (const [name, list] of edits) {
      const file = files.get(name);
      expect(file?.name).toBe(name);
      for (const edit of list) {
        expect(edit.stripped).toBe(commentStrippedHash(file?.sql ?? ''));
        expect(edit.previous).not.toBe(file?.checksum);
      }
    }
  });
});
