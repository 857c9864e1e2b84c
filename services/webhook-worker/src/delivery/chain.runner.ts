import { newId } from '@leadhook/db';
import type { AttemptResult } from '@leadhook/webhooks';
import { enqueueOrLog, type WebhookDeps } from '../webhook.deps.js';
import { attemptOutcome } from '../webhook.metrics.js';
import { type AttemptReport, sendAttempt } from './attempt.sender.js';
import type { ClaimedDelivery, SkipReason } from './claimed-delivery.model.js';
import { leaseMs } from './delivery.queries.js';
import { handBack } from './hand-back.handler.js';
import { retryDelayMs } from './retry.policy.js';

/**
 * Delivery chains (docs/webhooks.md, "Ordering"): the pending deliveries of
 * one (subscription, lead), in the order of their activities (occurred_at, then
 * id: ids are time-sortable and monotonic within a process, so activities written
 * in one transaction keep their order). Only a chain's head is ever tried, and
 * trying it takes a lease on its row (webhook_claim), so at most one delivery per
 * chain is in flight and a healthy subscriber sees a lead's activities in
 * occurrence order; other chains, of the same subscriber or another, never wait
 * for it. The rows decide everything; a job only says "look at delivery X,
 * attempt N", so duplicate jobs (fast path, reconciler, a stalled job run again)
 * are harmless.
 *
 * When a head succeeds or finally fails, the same statement that records it
 * claims the chain's next delivery if it is due, and the job goes on with it
 * (up to CHAIN_RUN_LIMIT deliveries, then the next one is enqueued and waits its
 * turn in the queue like any other chain): a backlog drains at one SQL round
 * trip per delivery and without a queue round trip per delivery.
 */

/**
 * How far one job goes down its chain before handing it back to the queue (where
 * it waits its turn behind other chains): this many deliveries, this long, or
 * until the process is stopping (so that shutdown waits for one attempt, not a chain).
 */
export const CHAIN_RUN_LIMIT = 20;
export const CHAIN_RUN_MS = 10_000;

export type DeliveryJobResult =
  | { kind: 'skipped'; reason: SkipReason }
  | { kind: 'not_due'; dueAt: Date }
  /** Its own delivery's attempt was interrupted (the worker is stopping): see handBack. */
  | { kind: 'handed_back'; deliveryId: string; attempt: number }
  | { kind: 'attempted'; attempts: number }
  /**
   * Its subscription had WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION attempts in flight:
   * put back unsent, no attempt spent (cap.runner.ts).
   */
  | { kind: 'capped'; deliveryId: string; attempt: number };

/**
 * Goes on from a claim's answer (a delivery job's own claim, or a head its fan-out
 * claimed: webhook_fan_out_claim, see fanout.job.ts): sends the claimed delivery
 * and walks down its chain. The caller holds a slot of the subscription's cap
 * (runUnderCap, cap.runner.ts): the chain's deliveries are one subscription's,
 * sent one at a time, so the walk keeps that one slot.
 */
export async function runClaimed(
  deps: WebhookDeps,
  first: ClaimedDelivery,
  onAttempt: (report: AttemptReport) => void = () => {},
): Promise<DeliveryJobResult> {
  const started = Date.now();
  let current = first;
  let attempts = 0;
  for (;;) {
    const own = attempts === 0;
    switch (current.claim) {
      case 'claimed':
        break;
      case 'not_due':
      case 'busy':
        // Not yet (a reconciler that looked ahead), or another worker holds the
        // lease: the job waits until then. The chain's next delivery, found so,
        // gets a job of its own (a busy one has its holder).
        if (own && current.due_at) return { kind: 'not_due', dueAt: current.due_at };
        if (current.claim === 'not_due') {
          await enqueueOrLog(deps, current.delivery_id, current.attempt_count, current.due_at);
        }
        return { kind: 'attempted', attempts };
      case 'not_head':
      case 'unclaimed':
        // The chain's head (an older activity's delivery that appeared later, or
        // the next one when this job has gone far enough) gets a job of its own.
        await enqueueOrLog(deps, current.delivery_id, current.attempt_count, current.due_at);
        return own ? { kind: 'skipped', reason: 'not_head' } : { kind: 'attempted', attempts };
      default:
        return own && current.claim !== null
          ? { kind: 'skipped', reason: current.claim }
          : { kind: 'attempted', attempts };
    }

    const attempt = current.attempt_count;
    const attemptedAt = deps.now();
    const sentAt = Date.now();
    let result: AttemptResult;
    try {
      result = await sendAttempt(deps, current, attemptedAt);
    } catch (err) {
      // Only the interruption is handed back (deliver() rethrows its reason); any
      // other error is the job's, as before the drain.
      if (!deps.interrupt.aborted || err !== deps.interrupt.reason) throw err;
      const leaseUntil = new Date(Math.max(attemptedAt.getTime(), sentAt) + leaseMs(deps));
      await handBack(deps, current, Date.now() - sentAt, leaseUntil);
      // The job's own delivery: the job waits for another worker (the caller).
      if (own) return { kind: 'handed_back', deliveryId: current.delivery_id, attempt };
      await enqueueOrLog(deps, current.delivery_id, attempt, null);
      return { kind: 'attempted', attempts };
    }
    attempts++;
    deps.metrics.attemptDuration.observe(
      { outcome: attemptOutcome(result) },
      result.durationMs / 1000,
    );
    const sent = current;
    const goOn =
      attempts < CHAIN_RUN_LIMIT && Date.now() - started < CHAIN_RUN_MS && !deps.stopping();
    current = await record(deps, sent, attempt, attemptedAt, result, goOn);
    const outcome = current.outcome ?? 'stale';
    onAttempt({
      deliveryId: sent.delivery_id,
      attempt,
      subscriptionId: sent.subscription_id,
      leadId: sent.lead_id,
      outcome,
      result,
    });
    if (outcome === 'retry') {
      await enqueueOrLog(deps, sent.delivery_id, attempt + 1, current.retry_at);
      return { kind: 'attempted', attempts };
    }
    if (outcome === 'disabled') {
      deps.metrics.deliveries.inc({ result: 'failed' });
      if (current.disabled_now && current.disabled_reason) {
        deps.metrics.subscriptionsDisabled.inc({ reason: current.disabled_reason });
      }
      return { kind: 'attempted', attempts };
    }
    if (outcome === 'stale') return { kind: 'attempted', attempts };
    deps.metrics.deliveries.inc({ result: outcome });
    // Succeeded or finally failed: `current` is now the chain's next delivery (or none).
  }
}

/**
 * Records the attempt and moves the delivery on (webhook_record_attempt, in a
 * transaction shared with the other attempts that finished meanwhile), with the
 * retry's delay the policy chose (retry.policy.ts; none left = failed).
 */
function record(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  attempt: number,
  attemptedAt: Date,
  result: AttemptResult,
  goOn: boolean,
): Promise<ClaimedDelivery> {
  return deps.records.submit({
    delivery_id: delivery.delivery_id,
    attempt,
    attempt_id: newId('attempt'),
    attempted_at: attemptedAt,
    ok: result.ok,
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    error: result.error,
    response_body: result.responseBody,
    retry_delay_ms: retryDelayMs(deps.retryScheduleMs, attempt, result.retryAfterMs, deps.random),
    continue: goOn,
  });
}
