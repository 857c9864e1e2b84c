import type { Prisma, PrismaClient } from '@leadhook/db';
import { enqueueDelivery, type WebhookDeps } from './webhook.deps.js';

/**
 * Delivery chains (DESIGN.md "Ordering of deliveries"): the pending deliveries of
 * one (subscription, lead), in the order of their activities (occurred_at, then
 * id: ids are time-sortable and monotonic within a process, so activities written
 * in one transaction keep their order). Only a chain's head is ever enqueued or
 * tried, so at most one delivery per chain is in flight and a healthy subscriber
 * sees a lead's activities in occurrence order; other chains, of the same
 * subscriber or another, never wait for it.
 */

export interface ChainHead {
  id: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** The oldest pending delivery of a chain, or null when none is left. */
export async function chainHead(
  db: Db,
  subscriptionId: string,
  leadId: string,
): Promise<ChainHead | null> {
  const rows = await db.$queryRaw<
    { id: string; attempt_count: number; next_attempt_at: Date | null }[]
  >`
    SELECT d.id, d.attempt_count, d.next_attempt_at
      FROM deliveries d
      JOIN activities a ON a.id = d.activity_id
     WHERE d.subscription_id = ${subscriptionId}
       AND d.lead_id = ${leadId}
       AND d.status = 'pending'
     ORDER BY a.occurred_at, a.id
     LIMIT 1`;
  const row = rows[0];
  return row
    ? { id: row.id, attemptCount: row.attempt_count, nextAttemptAt: row.next_attempt_at }
    : null;
}

/**
 * Enqueues the head of a chain (after a fan-out, or when the previous head
 * succeeded or finally failed). A failure to reach Redis is logged, not thrown:
 * the reconciler enqueues the head from PostgreSQL later.
 */
export async function kickChain(
  deps: Pick<WebhookDeps, 'prisma' | 'queues' | 'now' | 'logger'>,
  subscriptionId: string,
  leadId: string,
): Promise<void> {
  try {
    const head = await chainHead(deps.prisma, subscriptionId, leadId);
    if (head) await enqueueDelivery(deps, head.id, head.attemptCount, head.nextAttemptAt);
  } catch (err) {
    deps.logger.warn(
      { err, subscription_id: subscriptionId, lead_id: leadId },
      'chain head enqueue failed; the reconciler will retry',
    );
  }
}
