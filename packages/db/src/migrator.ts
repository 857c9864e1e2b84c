import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Umzug } from 'umzug';

/**
 * Applies Prisma-layout migrations (`<dir>/<timestamp>_<name>/migration.sql`) and
 * records them in Prisma's `_prisma_migrations` table with Prisma's checksum
 * (sha256 of the file), so an operator with the native engine can still run
 * `prisma migrate status|deploy` against the same database.
 *
 * - Each migration and its record are one transaction: a crash leaves it either
 *   applied and recorded, or neither.
 * - A session-level advisory lock serialises concurrent runners (several
 *   processes starting at once): the second waits, then finds nothing pending.
 * - A migration file edited after it was applied is refused: the database would
 *   no longer match the code's idea of it. The one exception is an edit of its
 *   comment lines only, listed in `comment-edits.json` beside the migrations
 *   (see COMMENT_EDITS_FILE): the database is the same, so the record's checksum
 *   is brought up to date instead.
 */

/** Arbitrary constant shared by every leadhook migrator (pg_advisory_lock key). */
const MIGRATION_LOCK_KEY = 7_245_190_331;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * The file, in the migrations directory, that lists the comment-only edits of
 * applied migrations: `{ "<migration>": [{ "previous": <checksum before the
 * edit>, "stripped": <commentStrippedHash of the file> }] }`. A record whose
 * checksum is a listed `previous` one is accepted only while the file's
 * comment-stripped hash still equals the listed `stripped` one, so an edit of
 * any SQL line is refused as before.
 */
export const COMMENT_EDITS_FILE = 'comment-edits.json';

export interface CommentEdit {
  previous: string;
  stripped: string;
}

/** sha256 of a migration's SQL without its whole-line `--` comments. */
export function commentStrippedHash(sql: string): string {
  const code = sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return createHash('sha256').update(code).digest('hex');
}

function isCommentEdit(entry: unknown): entry is CommentEdit {
  if (typeof entry !== 'object' || entry === null) return false;
  const { previous, stripped } = entry as Record<string, unknown>;
  return typeof previous === 'string' && typeof stripped === 'string';
}

export function readCommentEdits(dir: string): Map<string, CommentEdit[]> {
  const path = join(dir, COMMENT_EDITS_FILE);
  if (!existsSync(path)) return new Map();
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const edits = new Map<string, CommentEdit[]>();
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new MigrationError(`${COMMENT_EDITS_FILE} must be an object of migration names`);
  }
  for (const [name, list] of Object.entries(parsed)) {
    if (!Array.isArray(list) || !list.every(isCommentEdit)) {
      throw new MigrationError(
        `${COMMENT_EDITS_FILE}: ${name} must list {"previous","stripped"} checksums`,
      );
    }
    edits.set(name, list);
  }
  return edits;
}

export function readMigrations(dir: string): MigrationFile[] {
  return readdirSync(dir)
    .filter((entry) => statSync(join(dir, entry)).isDirectory())
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface MigrateOptions {
  databaseUrl: string;
  migrationsDir: string;
}

/** Applies every pending migration; returns the names it applied. */
export async function migrate(options: MigrateOptions): Promise<string[]> {
  const files = readMigrations(options.migrationsDir);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const { applied, commentEdited } = verifyApplied(
      files,
      rows,
      readCommentEdits(options.migrationsDir),
    );
    for (const edit of commentEdited) {
      await client.query(
        'UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2 AND checksum = $3',
        [edit.checksum, edit.name, edit.previous],
      );
    }

    const umzug = new Umzug({
      migrations: files.map((file) => ({ name: file.name, up: () => applyOne(client, file) })),
      // applyOne records the migration inside its own transaction, so the storage
      // only reports what is recorded.
      storage: {
        executed: async () => [...applied],
        logMigration: async () => {},
        unlogMigration: async () => {
          throw new MigrationError('leadhook migrations are forward-only');
        },
      },
      logger: undefined,
    });
    const done = await umzug.up();
    return done.map((m) => m.name);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

interface CommentEdited {
  name: string;
  previous: string;
  checksum: string;
}

function verifyApplied(
  files: MigrationFile[],
  rows: AppliedRow[],
  commentEdits: Map<string, CommentEdit[]>,
): { applied: Set<string>; commentEdited: CommentEdited[] } {
  const byName = new Map(files.map((f) => [f.name, f]));
  const applied = new Set<string>();
  const commentEdited: CommentEdited[] = [];
  for (const row of rows) {
    if (row.rolled_back_at) continue;
    if (!row.finished_at) {
      throw new MigrationError(
        `migration ${row.migration_name} started but never finished; resolve it by hand (prisma migrate resolve) before starting`,
      );
    }
    const file = byName.get(row.migration_name);
    if (file && file.checksum !== row.checksum) {
      const listed = commentEdits.get(row.migration_name) ?? [];
      const stripped = commentStrippedHash(file.sql);
      if (listed.some((edit) => edit.previous === row.checksum && edit.stripped === stripped)) {
        commentEdited.push({ name: file.name, previous: row.checksum, checksum: file.checksum });
        applied.add(row.migration_name);
        continue;
      }
      throw new MigrationError(
        `migration ${row.migration_name} was edited after it was applied (checksum differs); add a new migration instead`,
      );
    }
    applied.add(row.migration_name);
  }
  return { applied, commentEdited };
}

async function applyOne(client: pg.Client, file: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(file.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, now(), 1)`,
      [randomUUID(), file.checksum, file.name],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    const why = err instanceof Error ? err.message : String(err);
    throw new MigrationError(`migration ${file.name} failed and was rolled back: ${why}`);
  }
}
