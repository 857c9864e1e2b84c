import { withTimeout } from '@leadhook/observability';
import type { WebhookDeps } from '../webhook.deps.js';
import type { ClaimedDelivery } from './claimed-delivery.model.js';
import { releaseDelivery } from './delivery.queries.js';

/** How long a hand-back waits for PostgreSQL: well inside the drain's reserve (worker-runtime drainTimeoutMs). */
const HAND_BACK_BUDGET_MS = 300;

/**
 * An attempt still in flight at the drain deadline (the worker is stopping:
 * drainTimeoutMs, packages/worker-runtime) is aborted (deps.interrupt) and
 * handed back: webhook_release ends its lease, and the same attempt, with the
 * same webhook-id, is sent again by a worker that is not stopping, at once (a
 * job waits in Redis for it: the delivery job's own, or a new one for a delivery
 * a fan-out claimed; the reconciler covers a Redis that is away).
 *
 * No attempt row is written for it, on purpose. An attempt row is the
 * subscriber's answer to a try that had its whole WEBHOOK_TIMEOUT_MS, and it
 * moves the delivery on: it spends an entry of the retry schedule (the last one
 * fails the delivery), waits the next entry before the retry, and starts the
 * subscription's 5-day failing clock. An interrupted try had less than its
 * timeout and has no answer: recording it would charge the subscriber for our
 * restart, up to failing a delivery it would have taken. Handing back is what a
 * crash already does (the lease lapses and the same attempt runs again:
 * docs/webhooks.md, "At-least-once"), only without the wait. The subscriber may
 * get the webhook-id twice, which is what deduplicating on it is for; this log
 * line is the interrupted try's record. PostgreSQL unreachable: the lease lapses
 * instead.
 */
export async function handBack(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  durationMs: number,
  leaseUntil: Date,
): Promise<void> {
  const fields = {
    delivery_id: delivery.delivery_id,
    attempt: delivery.attempt_count,
    subscription_id: delivery.subscription_id,
    lead_id: delivery.lead_id,
    duration_ms: durationMs,
  };
  const failure = await releaseLease(deps, delivery, leaseUntil);
  if (failure === undefined) {
    deps.logger.info(fields, 'delivery attempt interrupted (stopping); handed back');
  } else {
    deps.logger.warn(
      { ...fields, err: failure },
      'delivery attempt interrupted (stopping); its lease lapses, then it is sent again',
    );
  }
}

/**
 * Ends this worker's lease of a claimed delivery that it will not send
 * (webhook_release: its own lease only, one ending by `leaseUntil`), so another
 * worker sends it at once. Within a budget: the worker is stopping, and a
 * PostgreSQL that is slow or away must not hold the exit (the lease then
 * lapses instead). Resolves with the failure, if any; never rejects.
 */
export async function releaseLease(
  deps: Pick<WebhookDeps, 'pool' | 'now'>,
  delivery: ClaimedDelivery,
  leaseUntil: Date,
): Promise<unknown> {
  try {
    await withTimeout(
      releaseDelivery(deps, delivery.delivery_id, delivery.attempt_count, leaseUntil),
      HAND_BACK_BUDGET_MS,
      () => new Error(`no answer within ${HAND_BACK_BUDGET_MS} ms`),
    );
    return undefined;
  } catch (err) {
    return err;
  }
}
