import { escapeIdentifier, type Pool, type PoolClient } from '@leadhook/db';
import { openOutboxRows, PeriodicJob } from '@leadhook/queue';
import { withSessionLock } from './session-lock.js';

/**
 * The partition job (docs/operations.md, "History partitions";
 * docs/operations.md, "Outbox partitions"): keeps the monthly partitions of the history tables
 * (submissions, activities, deliveries, attempts; partitioned by their ids'
 * month) and the daily partitions of the outbox (by created_at) ahead of time,
 * drops whole months past HISTORY_RETENTION when it is set, and whole days of
 * the outbox past OUTBOX_RETENTION once none of their rows is open.
 *
 * - creates the partitions of this month and the next `monthsAhead`
 *   (leadhook_history_partitions_ensure), and the outbox's of today and the next
 *   `outboxDaysAhead` days (leadhook_outbox_partitions_ensure): a row of a month
 *   or day with no partition would be refused, so they exist well before a row
 *   needs them;
 * - with `historyRetentionMs`, drops every monthly partition whose whole month
 *   ended more than that ago, oldest first, attempts before the deliveries they
 *   reference, deliveries before their activities: the rows of later partitions
 *   that still reference it (a delivery made after its activity's month ended,
 *   an attempt after its delivery's) are deleted first, as deleting the referenced
 *   row would cascade; then the partition is detached CONCURRENTLY (writers and
 *   readers of the other partitions are not blocked) and dropped;
 * - drops every daily outbox partition whose whole day ended more than
 *   `outboxRetentionMs` ago, the same way, unless it still has an open row (a
 *   consumer is behind, or its topic's worker has not run): that day is kept,
 *   reported in the round's `held`, and looked at again next round. Nothing
 *   reopens a closed row, and rows are written in today's partition (created_at
 *   is the writing transaction's now()), so a day found with no open row gets
 *   none before it is dropped.
 *
 * Every worker runs it; a session-level advisory lock taken with
 * pg_try_advisory_lock lets one copy work at a time and the others skip the
 * round. Each step is idempotent, and a detach that a dead process left half
 * done is finished (DETACH ... FINALIZE) by the next round.
 */

/** Arbitrary constant next to the retention job's (7_245_190_333). */
export const PARTITIONS_LOCK_KEY = 7_245_190_334;

/** Months whose partitions exist ahead of the current one. */
export const PARTITION_MONTHS_AHEAD = 3;

/**
 * Days whose outbox partitions exist ahead of today: every outbox write (intake's
 * leads, every activity) would fail if no worker ran for this long. Each day
 * ahead is one more empty partition that the statements which cannot prune by
 * day (the relay's claim, the lag gauge) look into.
 */
export const OUTBOX_PARTITION_DAYS_AHEAD = 7;

/** Creating a partition locks its parent for an instant: never wait long for it. */
const LOCK_TIMEOUT = '5s';

const DAY_MS = 86_400_000;

export interface PartitionRound {
  /** Partitions created (<table>_pYYYYMM, outbox_pYYYYMMDD). */
  created: string[];
  /** Partitions detached and dropped. */
  dropped: string[];
  /** Outbox days past OUTBOX_RETENTION kept because rows of theirs are still open. */
  held: HeldPartition[];
}

export interface HeldPartition {
  /** outbox_pYYYYMMDD */
  partition: string;
  /** Its rows no consumer has closed yet. */
  openRows: number;
}

export interface PartitionJobOptions {
  pool: Pool;
  /** Drop months that ended longer ago than this (ms); null keeps every month. */
  historyRetentionMs: number | null;
  /** Drop outbox days that ended longer ago than this (ms), once none of their rows is open. */
  outboxRetentionMs: number;
  /** How often a round runs (ms); default hourly. */
  intervalMs?: number;
  /**
   * The first round's delay (ms); default a minute: the months and days ahead
   * already exist (the migrations made them), and a worker's start and a
   * short-lived copy's stop are not slowed by it.
   */
  firstDelayMs?: number;
  monthsAhead?: number;
  outboxDaysAhead?: number;
  /** "Now" for a round (tests move it). */
  now?: () => Date;
  /** Called when a round finished with the lock held. */
  onRound?: (round: PartitionRound) => void;
  /** Called with what went wrong; the job keeps running. */
  onError?: (err: unknown) => void;
}

interface Expired {
  table: string;
  partition: string;
  from: string;
  to: string;
}

/**
 * The rows of later partitions that reference the rows of an expiring one, by
 * the referencing table's index on the referencing column.
 */
const REFERENCING: Record<string, string | undefined> = {
  deliveries: 'DELETE FROM attempts WHERE delivery_id >= $1 AND delivery_id < $2',
  activities: 'DELETE FROM deliveries WHERE activity_id >= $1 AND activity_id < $2',
};

export class PartitionJob extends PeriodicJob {
  constructor(private readonly options: PartitionJobOptions) {
    super({
      intervalMs: options.intervalMs ?? 3_600_000,
      firstDelayMs: options.firstDelayMs ?? 60_000,
      onError: (err) => options.onError?.(err),
    });
  }

  protected round(): Promise<unknown> {
    return this.runOnce();
  }

  /** One round with the lock; null when another process holds it. */
  async runOnce(): Promise<PartitionRound | null> {
    return withSessionLock(this.options.pool, PARTITIONS_LOCK_KEY, async (client) => {
      await client.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
      try {
        const now = this.options.now?.() ?? new Date();
        const created = [
          ...(await this.createAhead(client, now)),
          ...(await this.createOutboxAhead(client, now)),
        ];
        const dropped = await this.dropExpired(client, now);
        const outbox = await this.dropExpiredOutbox(client, now);
        const round: PartitionRound = {
          created,
          dropped: [...dropped, ...outbox.dropped],
          held: outbox.held,
        };
        this.options.onRound?.(round);
        return round;
      } finally {
        await client.query('RESET lock_timeout');
      }
    });
  }

  private async createAhead(client: PoolClient, now: Date): Promise<string[]> {
    const through = new Date(
      Date.UTC(
        now.getUTCFullYear(),
        now.getUTCMonth() + (this.options.monthsAhead ?? PARTITION_MONTHS_AHEAD),
        1,
      ),
    );
    const { rows } = await client.query<{ name: string }>(
      'SELECT leadhook_history_partitions_ensure($1, $2) AS name',
      [now, through],
    );
    return rows.map((r) => r.name);
  }

  private async createOutboxAhead(client: PoolClient, now: Date): Promise<string[]> {
    const daysAhead = this.options.outboxDaysAhead ?? OUTBOX_PARTITION_DAYS_AHEAD;
    const { rows } = await client.query<{ name: string }>(
      'SELECT leadhook_outbox_partitions_ensure($1, $2) AS name',
      [now, new Date(now.getTime() + daysAhead * DAY_MS)],
    );
    return rows.map((r) => r.name);
  }

  /** The outbox's days past retention: dropped, or held while a row of theirs is open. */
  private async dropExpiredOutbox(
    client: PoolClient,
    now: Date,
  ): Promise<{ dropped: string[]; held: HeldPartition[] }> {
    const cutoff = new Date(now.getTime() - this.options.outboxRetentionMs);
    const { rows } = await client.query<{ partition: string }>(
      `SELECT r_partition AS partition FROM leadhook_outbox_partitions()
        WHERE r_day + interval '24 hours' <= $1`,
      [cutoff],
    );
    const dropped: string[] = [];
    const held: HeldPartition[] = [];
    for (const { partition } of rows) {
      if (this.stopped) break;
      const openRows = await openOutboxRows(client, partition);
      if (openRows > 0) {
        held.push({ partition, openRows });
        continue;
      }
      await this.detachAndDrop(client, 'outbox', partition);
      dropped.push(partition);
    }
    return { dropped, held };
  }

  private async dropExpired(client: PoolClient, now: Date): Promise<string[]> {
    const retentionMs = this.options.historyRetentionMs;
    if (retentionMs === null) return [];
    const cutoff = new Date(now.getTime() - retentionMs);
    const { rows } = await client.query<Expired>(
      `SELECT r_table AS table, r_partition AS partition, r_from AS from, r_to AS to
         FROM leadhook_history_partitions()
        WHERE r_month + interval '1 month' <= $1`,
      [cutoff],
    );
    const dropped: string[] = [];
    for (const expired of rows) {
      if (this.stopped) break;
      await this.drop(client, expired);
      dropped.push(expired.partition);
    }
    return dropped;
  }

  private async drop(client: PoolClient, { table, partition, from, to }: Expired): Promise<void> {
    const referencing = REFERENCING[table];
    if (referencing !== undefined) await client.query(referencing, [from, to]);
    await this.detachAndDrop(client, table, partition);
  }

  /** Detaches `partition` from `table` CONCURRENTLY (or finishes a detach left pending) and drops it. */
  private async detachAndDrop(client: PoolClient, table: string, partition: string): Promise<void> {
    const { rows } = await client.query<{ pending: boolean }>(
      `SELECT i.inhdetachpending AS pending FROM pg_inherits i
        WHERE i.inhrelid = to_regclass($1) AND i.inhparent = to_regclass($2)`,
      [partition, table],
    );
    const parent = escapeIdentifier(table);
    const child = escapeIdentifier(partition);
    if (rows[0]?.pending) {
      await client.query(`ALTER TABLE ${parent} DETACH PARTITION ${child} FINALIZE`);
    } else if (rows[0] !== undefined) {
      await client.query(`ALTER TABLE ${parent} DETACH PARTITION ${child} CONCURRENTLY`);
    }
    await client.query(`DROP TABLE IF EXISTS ${child}`);
  }
}
