import { enqueueDelivery, type WebhookDeps } from './webhook.deps.js';

export interface ReconcileOptions {
  /** Heads due up to this far ahead are enqueued too (as delayed jobs). */
  horizonMs: number;
  batchSize?: number;
}

/**
 * Re-enqueues the head of every delivery chain that PostgreSQL says is due (or
 * due within the horizon): Redis keeps nothing on disk and may have forgotten
 * the job (a restart, an obliterated queue, a fast-path enqueue that failed).
 * Deterministic job ids make this harmless for jobs Redis still holds, and a
 * head enqueued twice runs once (the processor re-reads the row). Returns how
 * many heads were enqueued or confirmed.
 *
 * One DISTINCT ON pass over pending deliveries: a large backlog of one dead
 * subscriber makes it scan more rows, which the batch size bounds per round.
 */
export async function reconcileOnce(
  deps: Pick<WebhookDeps, 'prisma' | 'queues' | 'now'>,
  options: ReconcileOptions,
): Promise<number> {
  const horizon = new Date(deps.now().getTime() + options.horizonMs);
  const heads = await deps.prisma.$queryRaw<
    { id: string; attempt_count: number; next_attempt_at: Date | null }[]
  >`
    SELECT * FROM (
      SELECT DISTINCT ON (d.subscription_id, d.lead_id)
             d.id, d.attempt_count, d.next_attempt_at
        FROM deliveries d
        JOIN activities a ON a.id = d.activity_id
       WHERE d.status = 'pending'
       ORDER BY d.subscription_id, d.lead_id, a.occurred_at, a.id
    ) heads
     WHERE next_attempt_at IS NULL OR next_attempt_at <= ${horizon}::timestamptz
     ORDER BY next_attempt_at NULLS FIRST
     LIMIT ${options.batchSize ?? 500}`;
  for (const head of heads) {
    await enqueueDelivery(deps, head.id, head.attempt_count, head.next_attempt_at);
  }
  return heads.length;
}
