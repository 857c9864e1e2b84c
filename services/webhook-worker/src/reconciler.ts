import { enqueueDeliveries, type WebhookDeps } from './webhook.deps.js';

export interface ReconcileOptions {
  /** Heads due up to this far ahead are enqueued too (as delayed jobs). */
  horizonMs: number;
  batchSize?: number;
}

/**
 * Re-enqueues the head of every delivery chain that PostgreSQL says is due (or
 * due within the horizon): Redis keeps nothing on disk and may have forgotten
 * the job (a restart, an obliterated queue, a fast-path enqueue that failed, a
 * worker killed while it went down a chain), in one Redis round trip. BullMQ's
 * deduplication makes this harmless for jobs Redis still holds, and a head
 * enqueued twice runs once (the claim re-reads the row). A head whose lease is held is due when it lapses.
 * Returns how many heads were enqueued or confirmed.
 *
 * Cheap whatever the backlog: deliveries waiting behind their chain's head are
 * `queued` and absent from deliveries_due_idx, so a dead subscriber's thousands
 * of waiting deliveries are never read; only heads (one per chain) are, in due
 * order, each checked against webhook_chain_head. The due time is the index's
 * range condition, so heads retrying later (a dead subscriber's) are not read
 * either: only the due heads are (bench/RESULTS.md, "The reconciler with a big
 * backlog"). Every pending delivery
 * has a next_attempt_at (fan-out, retry and the API's redeliver set it).
 */
export async function reconcileOnce(
  deps: Pick<WebhookDeps, 'pool' | 'queues' | 'now'>,
  options: ReconcileOptions,
): Promise<number> {
  const horizon = new Date(deps.now().getTime() + options.horizonMs);
  const { rows: heads } = await deps.pool.query<{
    id: string;
    attempt_count: number;
    due_at: Date | null;
  }>(
    `SELECT d.id, d.attempt_count, GREATEST(d.next_attempt_at, d.claimed_until) AS due_at
       FROM deliveries d
      WHERE d.status = 'pending' AND NOT d.queued
        AND d.next_attempt_at <= $1
        AND (d.claimed_until IS NULL OR d.claimed_until <= $1)
        AND d.id = webhook_chain_head(d.subscription_id, d.lead_id)
      ORDER BY d.next_attempt_at
      LIMIT $2`,
    [horizon, options.batchSize ?? 500],
  );
  await enqueueDeliveries(
    deps,
    heads.map((head) => ({ deliveryId: head.id, attempt: head.attempt_count, dueAt: head.due_at })),
  );
  return heads.length;
}
