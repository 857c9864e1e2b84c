import { escapeIdentifier } from '@leadhook/db';
import type { Pool } from 'pg';
import { PeriodicJob } from './periodic-task.js';
import { type JobPayloads, OUTBOX_TOPIC_LIST, type OutboxTopic, type QueueSet } from './queues.js';

/**
 * The outbox relay (docs/operations.md, "Architecture"): re-enqueues outbox rows whose
 * consumer has not closed them yet. It is what makes "201 even while Redis is
 * down" true: the writer's fast-path enqueue may have failed, and Redis (which
 * keeps nothing on disk) may have forgotten a job it had.
 *
 * A relay sends only the topics it is given: each worker process relays the
 * topics whose queue it consumes (OUTBOX_TOPICS), so two different processes
 * never work on the same rows. Copies of one process may run at once: a batch is
 * claimed by pushing its rows' next_relay_at forward under FOR UPDATE SKIP
 * LOCKED, so two relays never look at the same row in the same round.
 *
 * Every claim moves the row's next_relay_at further out (base · 2^n, capped), and
 * a claimed row whose job Redis still holds as pending (waiting behind a backlog,
 * or running) is not sent again (QueueSet.requeueMany, BullMQ's deduplication):
 * during a long backlog the relay costs one cheap claim per row now and then and
 * one Redis round trip per batch, not a second job per queued one. Consumers are
 * idempotent all the same. Rows are closed by their consumers, never here.
 */

export interface OutboxRelayOptions {
  pool: Pool;
  queues: QueueSet;
  /** The topics this relay sends: those whose queue its process consumes (OUTBOX_TOPICS). */
  topics: readonly OutboxTopic[];
  /** How often to look (ms). */
  intervalMs?: number;
  /** Rows claimed per topic and round. */
  batchSize?: number;
  /** Wait before a claimed row is looked at again: base · 2^n after its n-th claim, capped. */
  backoffBaseSeconds?: number;
  backoffMaxSeconds?: number;
  /** Called with what went wrong; the relay keeps running. */
  onError?: (err: unknown) => void;
  /** Called after each round that enqueued rows, with how many. */
  onRelayed?: (count: number) => void;
}

/** One round: rows enqueued again, and rows left alone because their job is still pending in Redis. */
export interface RelayRound {
  sent: number;
  pending: number;
}

interface ClaimedRow {
  id: string;
  /** Its created_at as PostgreSQL prints it: the row's key is (id, created_at). */
  created_at: string;
  payload: unknown;
}

/**
 * The claim of one topic's due rows, oldest due first, through that topic's
 * partial index outbox_relay_<topic>_idx. The topic is a literal (from the fixed
 * OUTBOX_TOPICS, never from input) so that the planner can prove the index's
 * predicate whatever the plan (migration 20261122210000_outbox_relay_by_topic).
 * The outbox is partitioned by day of created_at
 * (docs/operations.md, "Outbox partitions"): the rows claimed are updated by
 * their key (id, created_at), one primary-key probe in their own day's
 * partition each, not one in every day.
 */
const CLAIM_SQL = Object.fromEntries(
  OUTBOX_TOPIC_LIST.map((topic) => [
    topic,
    `UPDATE outbox o
        SET next_relay_at = now() + make_interval(secs => LEAST($2::float8, $3::float8 * power(2, LEAST(o.relay_count, 20)))),
            relay_count = o.relay_count + 1
       FROM (SELECT id, created_at FROM outbox
              WHERE topic = '${topic}' AND done_at IS NULL AND relay_count >= 0
                AND next_relay_at <= now()
              ORDER BY next_relay_at
              LIMIT $1
              FOR UPDATE SKIP LOCKED) due
      WHERE o.id = due.id AND o.created_at = due.created_at
      RETURNING o.id::text, o.created_at::text, o.payload`,
  ]),
) as Record<OutboxTopic, string>;

/**
 * The open rows' oldest created_at, per topic through its partial index (whose
 * predicate names relay_count >= 0, always true: see the migration).
 */
const OLDEST_OPEN_SQL = `SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM (${OUTBOX_TOPIC_LIST.map(
  (topic) =>
    `SELECT created_at FROM outbox WHERE topic = '${topic}' AND done_at IS NULL AND relay_count >= 0`,
).join(' UNION ALL ')}) open_rows`;

export class OutboxRelay extends PeriodicJob {
  constructor(private readonly options: OutboxRelayOptions) {
    super({ intervalMs: options.intervalMs ?? 1000, onError: (err) => options.onError?.(err) });
  }

  override start(): void {
    if (this.options.topics.length === 0) return;
    super.start();
  }

  protected round(): Promise<RelayRound> {
    return this.relayOnce();
  }

  /** One round: claims the due rows of each topic and enqueues those Redis does not hold. */
  async relayOnce(): Promise<RelayRound> {
    const round: RelayRound = { sent: 0, pending: 0 };
    let firstError: unknown;
    for (const topic of this.options.topics) {
      try {
        const { sent, pending } = await this.relayTopic(topic);
        round.sent += sent;
        round.pending += pending;
      } catch (err) {
        firstError ??= err;
      }
    }
    if (firstError !== undefined) this.options.onError?.(firstError);
    if (round.sent > 0) this.options.onRelayed?.(round.sent);
    return round;
  }

  private async relayTopic(topic: OutboxTopic): Promise<RelayRound> {
    const { pool, queues } = this.options;
    const base = this.options.backoffBaseSeconds ?? 10;
    const max = this.options.backoffMaxSeconds ?? 300;
    const { rows } = await pool.query<ClaimedRow>(CLAIM_SQL[topic], [
      this.options.batchSize ?? 500,
      max,
      base,
    ]);
    if (rows.length === 0) return { sent: 0, pending: 0 };
    try {
      return await queues.requeueMany(
        topic,
        rows.map((row) => row.payload as JobPayloads[OutboxTopic]),
      );
    } catch (err) {
      // Redis is away: try these again soon, without growing their backoff.
      await pool.query(
        `UPDATE outbox o SET next_relay_at = now() + interval '1 second', relay_count = o.relay_count - 1
           FROM unnest($1::bigint[], $2::timestamptz[]) AS k(id, created_at)
          WHERE o.id = k.id AND o.created_at = k.created_at`,
        [rows.map((row) => row.id), rows.map((row) => row.created_at)],
      );
      throw err;
    }
  }
}

/**
 * Open rows of one table of the outbox (a daily partition:
 * docs/operations.md, "Outbox partitions"), through each topic's relay index
 * as the lag gauge reads them: the partition job drops no day that still has one.
 */
export async function openOutboxRows(pool: Pick<Pool, 'query'>, table: string): Promise<number> {
  const name = escapeIdentifier(table);
  const { rows } = await pool.query<{ n: number }>(
    `SELECT (${OUTBOX_TOPIC_LIST.map(
      (topic) =>
        `(SELECT count(*) FROM ${name} WHERE topic = '${topic}' AND done_at IS NULL AND relay_count >= 0)`,
    ).join(' + ')})::int AS n`,
  );
  return rows[0]?.n ?? 0;
}

/** Age in seconds of the oldest open outbox row (0 when none): the relay's lag. */
export async function oldestOpenOutboxAgeSeconds(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ age: number | null }>(OLDEST_OPEN_SQL);
  return rows[0]?.age ?? 0;
}
