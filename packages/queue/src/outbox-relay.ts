import type { Pool } from 'pg';
import { PeriodicTask } from './periodic-task.js';
import { isTopic, type JobPayloads, type QueueSet, type Topic } from './queues.js';

/**
 * The outbox relay (DESIGN.md "The outbox"): re-enqueues outbox rows whose
 * consumer has not closed them yet. It is what makes "201 even while Redis is
 * down" true: the writer's fast-path enqueue may have failed, and Redis (which
 * keeps nothing on disk) may have forgotten a job it had.
 *
 * Many relays may run at once (one per worker process): a batch is claimed by
 * pushing its rows' next_relay_at forward under FOR UPDATE SKIP LOCKED, so two
 * relays never send the same row in the same round. Re-sending a row is harmless:
 * job ids are deterministic and consumers idempotent. Rows are closed by their
 * consumers, never here.
 */

export interface OutboxRelayOptions {
  pool: Pool;
  queues: QueueSet;
  /** How often to look (ms). */
  intervalMs?: number;
  batchSize?: number;
  /** Wait before a row is relayed again after a successful enqueue: base · 2^n, capped. */
  backoffBaseSeconds?: number;
  backoffMaxSeconds?: number;
  /** Called with what went wrong; the relay keeps running. */
  onError?: (err: unknown) => void;
  /** Called after each round that relayed rows. */
  onRelayed?: (count: number) => void;
}

interface ClaimedRow {
  id: string;
  topic: string;
  payload: unknown;
}

export class OutboxRelay {
  private readonly loop: PeriodicTask;

  constructor(private readonly options: OutboxRelayOptions) {
    this.loop = new PeriodicTask({
      run: () => this.relayOnce(),
      intervalMs: options.intervalMs ?? 1000,
      onError: (err) => options.onError?.(err),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the loop and waits for a round in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One round: claims due rows and enqueues them. Returns how many were enqueued. */
  async relayOnce(): Promise<number> {
    const { pool, queues } = this.options;
    const base = this.options.backoffBaseSeconds ?? 10;
    const max = this.options.backoffMaxSeconds ?? 300;
    const { rows } = await pool.query<ClaimedRow>(
      `UPDATE outbox
          SET next_relay_at = now() + make_interval(secs => LEAST($2::float8, $3::float8 * power(2, LEAST(relay_count, 20)))),
              relay_count = relay_count + 1
        WHERE id IN (SELECT id FROM outbox
                      WHERE done_at IS NULL AND next_relay_at <= now()
                      ORDER BY next_relay_at
                      LIMIT $1
                      FOR UPDATE SKIP LOCKED)
        RETURNING id::text, topic, payload`,
      [this.options.batchSize ?? 500, max, base],
    );
    if (rows.length === 0) return 0;

    const failed: string[] = [];
    let firstError: unknown;
    await Promise.all(
      rows.map(async (row) => {
        if (!isTopic(row.topic)) {
          firstError ??= new Error(`outbox row ${row.id} has unknown topic ${row.topic}`);
          return;
        }
        try {
          await queues.requeue(row.topic, row.payload as JobPayloads[Topic]);
        } catch (err) {
          failed.push(row.id);
          firstError ??= err;
        }
      }),
    );
    if (failed.length > 0) {
      // Redis is away: try these again soon, without growing their backoff.
      await pool.query(
        `UPDATE outbox SET next_relay_at = now() + interval '1 second', relay_count = relay_count - 1
          WHERE id = ANY($1::bigint[])`,
        [failed],
      );
    }
    if (firstError !== undefined) this.options.onError?.(firstError);
    const relayed = rows.length - failed.length;
    if (relayed > 0) this.options.onRelayed?.(relayed);
    return relayed;
  }
}

/** Age in seconds of the oldest open outbox row (0 when none): the relay's lag. */
export async function oldestOpenOutboxAgeSeconds(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ age: number | null }>(
    'SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM outbox WHERE done_at IS NULL',
  );
  return rows[0]?.age ?? 0;
}
