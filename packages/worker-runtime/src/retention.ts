import type { Pool, PoolClient } from '@leadhook/db';
import { PeriodicJob } from '@leadhook/queue';
import { withSessionLock } from './session-lock.js';

/**
 * The retention job (issue 6): removes what leadhook no longer needs, on a timer
 * in every worker process, in bounded batches.
 *
 * - idempotency keys older than 24 h (docs/intake.md, "Idempotency": a key replays for 24 h, and
 *   intake already ignores older ones);
 * - the subscriber's response body of webhook attempts older than
 *   `attemptBodyRetentionMs` (the attempt row itself stays: status, duration and
 *   error are the delivery's history);
 * - carrier statuses intake held for a SID no message took within 7 days
 *   (docs/operations.md, "Twilio's callbacks"): the worker commits a SID within
 *   its step's retries, minutes after Twilio's 201, and applies the held
 *   statuses then; one held longer is of a message leadhook did not send.
 *
 * Closed outbox rows are not deleted here: the outbox is partitioned by day and
 * the partition job drops whole days past OUTBOX_RETENTION (partitions.ts;
 * docs/operations.md, "Outbox partitions").
 *
 * Every worker runs it; a session-level advisory lock taken with
 * pg_try_advisory_lock lets one copy work at a time and the others skip the
 * round. A process that dies mid-round loses its session, and with it the lock.
 * Its timer is a PeriodicJob's (packages/queue), as the outbox relay's.
 */

export type RetentionKind = 'idempotency_keys' | 'attempt_bodies' | 'held_statuses';

export const RETENTION_KINDS: readonly RetentionKind[] = [
  'idempotency_keys',
  'attempt_bodies',
  'held_statuses',
];

/** Arbitrary constant next to the migrator's (7_245_190_331) and the test template's. */
export const RETENTION_LOCK_KEY = 7_245_190_333;

/** An Idempotency-Key replays its first answer for 24 h (docs/intake.md). */
const IDEMPOTENCY_KEY_HOURS = 24;

/**
 * How long a held carrier status waits for its SID. Fixed rather than a
 * setting: it is not a history anyone reads back (what OUTBOX_RETENTION and
 * ATTEMPT_BODY_RETENTION keep for operators), only a wait far longer than any
 * step's retries, and bounded so another application's statuses do not pile up.
 */
export const HELD_STATUS_DAYS = 7;

export interface RetentionOptions {
  pool: Pool;
  attemptBodyRetentionMs: number;
  /** How often a round runs (ms). */
  intervalMs?: number;
  /** Rows per statement: each statement is its own short transaction. */
  batchSize?: number;
  /** At most this many batches of each kind per round; the rest waits for the next round. */
  maxBatchesPerRound?: number;
  /** Called after each batch that removed rows. */
  onRemoved?: (kind: RetentionKind, count: number) => void;
  /** Called when a round finished with the lock held. */
  onRound?: (removed: Record<RetentionKind, number>) => void;
  /** Called with what went wrong; the job keeps running. */
  onError?: (err: unknown) => void;
}

/**
 * One statement per kind, `$1` = batch size, `$2` = age in seconds. The age
 * condition is repeated outside the sub-select: a row changed since the
 * sub-select read it (intake replacing an expired key with a fresh answer) is
 * re-checked against it and kept.
 */
const STATEMENTS: Record<RetentionKind, string> = {
  idempotency_keys: `
    DELETE FROM idempotency_keys
     WHERE created_at < now() - make_interval(secs => $2::float8)
       AND (source_id, key) IN (
             SELECT source_id, key FROM idempotency_keys
              WHERE created_at < now() - make_interval(secs => $2::float8)
              ORDER BY created_at
              LIMIT $1)`,
  attempt_bodies: `
    UPDATE attempts SET response_body = NULL
     WHERE response_body IS NOT NULL
       AND attempted_at < now() - make_interval(secs => $2::float8)
       AND id IN (
             SELECT id FROM attempts
              WHERE response_body IS NOT NULL
                AND attempted_at < now() - make_interval(secs => $2::float8)
              ORDER BY attempted_at
              LIMIT $1)`,
  held_statuses: `
    DELETE FROM provider_held_statuses
     WHERE received_at < now() - make_interval(secs => $2::float8)
       AND id IN (
             SELECT id FROM provider_held_statuses
              WHERE received_at < now() - make_interval(secs => $2::float8)
              ORDER BY received_at
              LIMIT $1)`,
};

/** Its stop() ends a round in progress after the current batch. */
export class RetentionJob extends PeriodicJob {
  constructor(private readonly options: RetentionOptions) {
    super({ intervalMs: options.intervalMs ?? 60_000, onError: (err) => options.onError?.(err) });
  }

  protected round(): Promise<unknown> {
    return this.runOnce();
  }

  /**
   * One round: with the lock, each kind in bounded batches. Resolves with the
   * rows removed per kind, or null when another process holds the lock.
   */
  async runOnce(): Promise<Record<RetentionKind, number> | null> {
    return withSessionLock(this.options.pool, RETENTION_LOCK_KEY, async (client) => {
      const removed = await this.removeAll(client);
      this.options.onRound?.(removed);
      return removed;
    });
  }

  private async removeAll(client: PoolClient): Promise<Record<RetentionKind, number>> {
    const batchSize = this.options.batchSize ?? 1000;
    const maxBatches = this.options.maxBatchesPerRound ?? 100;
    const ages: Record<RetentionKind, number> = {
      idempotency_keys: IDEMPOTENCY_KEY_HOURS * 3600,
      attempt_bodies: this.options.attemptBodyRetentionMs / 1000,
      held_statuses: HELD_STATUS_DAYS * 86_400,
    };
    const removed: Record<RetentionKind, number> = {
      idempotency_keys: 0,
      attempt_bodies: 0,
      held_statuses: 0,
    };
    for (const kind of RETENTION_KINDS) {
      for (let batch = 0; batch < maxBatches && !this.stopped; batch++) {
        const { rowCount } = await client.query(STATEMENTS[kind], [batchSize, ages[kind]]);
        const count = rowCount ?? 0;
        if (count > 0) {
          removed[kind] += count;
          this.options.onRemoved?.(kind, count);
        }
        if (count < batchSize) break;
      }
    }
    return removed;
  }
}
