import { type ActivityType, catalogEntry, isStopReply } from '@leadhook/contracts';
import { newId, type Pool, type PoolClient, type Prisma, type PrismaClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';

/**
 * The activity path (issue 4): the ONE way an activity comes to exist, for the
 * playbook worker's own steps and for POST /leads/{id}/activities alike.
 *
 * In one transaction it writes the activity row, applies the terminal-outcome
 * rule (at most one outcome per lead: checked under the lead's row lock, which
 * every writer of an outcome takes; activities is partitioned by month, so no
 * unique index on the lead can back it, docs/operations.md, "History partitions"),
 * stops an active play when an outcome arrives (with a `stopped` event first),
 * and writes an outbox row per activity for the webhook worker. After commit the
 * activity jobs are enqueued as a fast path; the outbox relay covers Redis.
 *
 * The rules live in one SQL function, activity_record, so the playbook worker's
 * own transitions (playbook_enroll, playbook_step_record, …) call the very same
 * path inside their single round trip; recordActivity below is its TypeScript
 * entrance for everyone else.
 */

export type Tx = Prisma.TransactionClient;

export interface NewActivity {
  leadId: string;
  type: ActivityType;
  label: string;
  data?: Record<string, unknown>;
  /** activity_note; defaults to the catalog's meaning of the label. */
  note?: string;
  enrollmentId?: string | null;
}

export interface RecordedActivity {
  id: string;
  leadId: string;
  type: ActivityType;
  label: string;
  occurredAt: Date;
}

export type RecordResult =
  | { kind: 'recorded'; activities: RecordedActivity[] }
  | { kind: 'unknown_label'; message: string }
  | { kind: 'lead_not_found' }
  | { kind: 'outcome_exists'; outcome: string };

/**
 * Where the activity path's SQL runs: a Prisma transaction (the API, the
 * provider's hooks) or a plain pg client inside a transaction (the playbook
 * worker's hot path). Both call the same SQL function.
 */
export interface SqlRunner {
  query<R>(text: string, values: readonly unknown[]): Promise<R[]>;
}

/** A Prisma interactive transaction as a SqlRunner. */
export function prismaRunner(tx: Tx): SqlRunner {
  return {
    query: <R>(text: string, values: readonly unknown[]) =>
      tx.$queryRawUnsafe<R[]>(text, ...values),
  };
}

/** A pg client or pool as a SqlRunner (the caller owns the transaction). */
export function pgRunner(client: {
  query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
}): SqlRunner {
  return {
    query: async <R>(text: string, values: readonly unknown[]) =>
      (await client.query(text, [...values])).rows as R[],
  };
}

/**
 * The most activities one activity_record call writes: `stopped`, the activity,
 * `stopped` and `opted_out` (an outcome stopping a play, or a STOP reply).
 */
export const MAX_ACTIVITIES_PER_RECORD = 4;

/**
 * Fresh activity ids for the SQL functions, which use them in order. newId's
 * ULIDs are monotonic within a process, so activities written in one call sort by
 * id in the order they were written.
 */
export function activityIds(count: number): string[] {
  return Array.from({ length: count }, () => newId('activity'));
}

/** The catalog's one-line meaning of a label, the default activity_note. */
export function catalogNote(type: ActivityType, label: string): string {
  const entry = catalogEntry(type, label);
  if (!entry) throw new Error(`"${label}" is not an ${type} label of the activity catalog`);
  return entry.meaning;
}

/** A row of the SQL functions that return recorded activities. */
export interface RecordedRow {
  r_id: string | null;
  r_type: string | null;
  r_label: string | null;
  r_occurred_at: Date | null;
}

/** The recorded activities among a SQL function's rows (rows with an id). */
export function recordedActivities(
  leadId: string,
  rows: readonly RecordedRow[],
): RecordedActivity[] {
  return rows.flatMap((row) =>
    row.r_id &&
    row.r_label &&
    row.r_occurred_at &&
    (row.r_type === 'event' || row.r_type === 'outcome')
      ? [
          {
            id: row.r_id,
            leadId,
            type: row.r_type,
            label: row.r_label,
            occurredAt: row.r_occurred_at,
          },
        ]
      : [],
  );
}

interface ActivityRecordRow extends RecordedRow {
  r_kind: 'recorded' | 'lead_not_found' | 'outcome_exists';
  r_outcome: string | null;
}

/**
 * Records an activity through the activity path (the SQL function
 * activity_record, prisma/functions/activity/activity_record.sql):
 * the lead's row lock, the one-outcome rule, `stopped` before an outcome of an
 * active play, and for a STOP reply message_received, stopped and the outcome
 * opted_out, each activity with its outbox row. Here, what needs the catalog:
 * the label's check, its default note, and whether a reply is a STOP. The caller
 * runs it in a transaction, commits, then calls `announce`.
 */
export async function recordActivity(
  db: SqlRunner,
  input: NewActivity,
  scope: { accountId?: string } = {},
): Promise<RecordResult> {
  const entry = catalogEntry(input.type, input.label);
  if (!entry) {
    return {
      kind: 'unknown_label',
      message: `"${input.label}" is not an ${input.type} label of the activity catalog (GET /activity_catalog).`,
    };
  }
  const stop = input.label === 'message_received' && isStopReply(String(input.data?.body ?? ''));
  const rows = await db.query<ActivityRecordRow>(
    `SELECT * FROM activity_record($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::text[])`,
    [
      input.leadId,
      scope.accountId ?? null,
      input.type,
      input.label,
      input.note ?? entry.meaning,
      JSON.stringify(input.data ?? {}),
      input.enrollmentId ?? null,
      stop,
      activityIds(MAX_ACTIVITIES_PER_RECORD),
    ],
  );
  const first = rows[0];
  if (!first) throw new Error('activity_record returned no row');
  if (first.r_kind === 'lead_not_found') return { kind: 'lead_not_found' };
  if (first.r_kind === 'outcome_exists') {
    return { kind: 'outcome_exists', outcome: first.r_outcome ?? '' };
  }
  return { kind: 'recorded', activities: recordedActivities(input.leadId, rows) };
}

/**
 * Records an activity inside the caller's Prisma transaction (recordActivity).
 * `accountId`, when given, scopes the lead (the API: another account's lead is
 * not found). The caller commits, then calls `announce` with the recorded ids.
 */
export function recordActivityInTx(
  tx: Tx,
  input: NewActivity,
  scope: { accountId?: string } = {},
): Promise<RecordResult> {
  return recordActivity(prismaRunner(tx), input, scope);
}

/**
 * Enqueues the activity jobs of committed activities (the fast path), in one
 * Redis round trip (addBulk). A failure is logged, not thrown: the outbox rows
 * committed with the activities are relayed once Redis is back.
 */
export function announce(
  queues: QueueSet,
  logger: Logger,
  activities: readonly RecordedActivity[],
): void {
  if (activities.length === 0) return;
  queues
    .enqueueMany(
      'activity',
      activities.map((a) => ({ activity_id: a.id })),
    )
    .catch((err: unknown) => {
      logger.warn(
        { err, activity_ids: activities.map((a) => a.id) },
        'activity enqueue failed; the outbox relay will send them',
      );
    });
}

/** recordActivityInTx in a transaction of its own, then announce. */
export class ActivityRecorder {
  constructor(private readonly deps: { prisma: PrismaClient; queues: QueueSet; logger: Logger }) {}

  async record(input: NewActivity, scope: { accountId?: string } = {}): Promise<RecordResult> {
    const result = await this.deps.prisma.$transaction((tx) =>
      recordActivityInTx(tx, input, scope),
    );
    if (result.kind === 'recorded') announce(this.deps.queues, this.deps.logger, result.activities);
    return result;
  }
}

/**
 * Runs `fn` in a transaction on one connection of a plain pg pool: COMMIT when it
 * resolves, ROLLBACK when it throws.
 */
export async function inTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    client.release();
  }
}
