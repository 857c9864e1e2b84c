import type { CapSlot } from '../subscription-cap.js';
import { enqueueOrLog, type WebhookDeps } from '../webhook.deps.js';
import type { CappedPath } from '../webhook.metrics.js';
import type { AttemptReport } from './attempt.sender.js';
import { type DeliveryJobResult, runClaimed } from './chain.runner.js';
import type { ClaimedDelivery } from './claimed-delivery.model.js';
import { claimDelivery, leaseMs, releaseDelivery } from './delivery.queries.js';

/**
 * Runs the job "attempt `attempt` of delivery `delivery_id`": claims it, and
 * sends it under its subscription's cap (runUnderCap): the attempt, its record,
 * and the walk down its chain while the next delivery is due (chain.runner.ts).
 * Retries are delayed jobs of their own with the next attempt number
 * (docs/webhooks.md, "Retries").
 */
export async function runDelivery(
  deps: WebhookDeps,
  job: { delivery_id: string; attempt: number },
  onAttempt: (report: AttemptReport) => void = () => {},
): Promise<DeliveryJobResult> {
  const claimed = await claimDelivery(deps, job.delivery_id, job.attempt);
  return runUnderCap(deps, claimed, 'delivery_job', onAttempt);
}

/**
 * Sends a claimed delivery (a job's own claim, or a head its fan-out claimed) in
 * a slot of its subscription's cap (deps.cap, WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION:
 * subscription-cap.ts), every path that sends going through here.
 *
 * At the cap the delivery is put back, unsent: its lease ends (webhook_release),
 * so it stays its chain's head, due, at the same attempt (no attempt row, no
 * retry spent, and nothing behind it in its chain moves: the per-lead order
 * holds), and it waits among the subscription's waiters. The caller keeps a job
 * for it in Redis due after the cap's ttl, in case no slot holder takes it first.
 *
 * With a slot, once done with its delivery and chain the holder sends the
 * subscription's oldest waiter in the same slot (handOff), and so on until none
 * waits or the process stops: a subscriber's backlog beyond the cap drains at
 * its cap's pace, by the slots it holds, while every other slot of the process
 * (delivery jobs, fan-outs' sends) serves the other subscribers.
 */
export async function runUnderCap(
  deps: WebhookDeps,
  first: ClaimedDelivery,
  path: CappedPath,
  onAttempt: (report: AttemptReport) => void,
): Promise<DeliveryJobResult> {
  const cap = deps.cap;
  if (!cap || first.claim !== 'claimed') return runClaimed(deps, first, onAttempt);
  let slot = await cap.acquire(first.subscription_id);
  let current = first;
  if (!slot) {
    // Its lease ends before it parks, so that a holder that takes it from the
    // waiters can claim it at once.
    await putBack(deps, first, path);
    slot = await cap.park(first.subscription_id, {
      deliveryId: first.delivery_id,
      attempt: first.attempt_count,
    });
    if (!slot) {
      return { kind: 'capped', deliveryId: first.delivery_id, attempt: first.attempt_count };
    }
    // A slot freed meanwhile: claimed again (anyone may have taken it since).
    current = await claimAgain(deps, slot, first);
  }
  let result: DeliveryJobResult;
  try {
    result = await runClaimed(deps, current, onAttempt);
  } catch (err) {
    await cap.release(slot);
    throw err;
  }
  await sendWaiters(deps, slot, onAttempt);
  return result;
}

/** claimDelivery for a delivery put back, the slot given back if that fails. */
async function claimAgain(
  deps: WebhookDeps,
  slot: CapSlot,
  delivery: ClaimedDelivery,
): Promise<ClaimedDelivery> {
  try {
    return await claimDelivery(deps, delivery.delivery_id, delivery.attempt_count);
  } catch (err) {
    await deps.cap?.release(slot);
    throw err;
  }
}

/** The holder of `slot` sends the subscription's waiters, oldest first, then gives the slot back. */
async function sendWaiters(
  deps: WebhookDeps,
  slot: CapSlot,
  onAttempt: (report: AttemptReport) => void,
): Promise<void> {
  const cap = deps.cap;
  if (!cap) return;
  try {
    while (!deps.stopping()) {
      const waiter = await cap.handOff(slot);
      // None waits: handOff gave the slot back.
      if (!waiter) return;
      // A waiter its own job sent meanwhile, or no longer its chain's head, is
      // skipped by the claim, as a duplicate job would be.
      const claimed = await claimDelivery(deps, waiter.deliveryId, waiter.attempt);
      const result = await runClaimed(deps, claimed, onAttempt);
      if (result.kind === 'handed_back') {
        // Stopping: its job (due after the cap's ttl) is live, and this is a no-op
        // then; the reconciler covers a Redis that lost it.
        await enqueueOrLog(deps, result.deliveryId, result.attempt, null);
      }
    }
  } catch (err) {
    // The waiter's lease lapses and the reconciler sends it again (at-least-once).
    deps.logger.error(
      { err, subscription_id: slot.subscriptionId },
      'sending a delivery that waited for its subscription cap failed; the reconciler will retry it',
    );
  }
  await cap.release(slot);
}

/**
 * Puts back a delivery claimed over its subscription's cap: counted
 * (leadhook_webhook_deliveries_capped_total), logged once a minute per
 * subscription, and its lease ended so that a slot holder can claim it. A
 * release that fails leaves the lease to lapse (the attempt timeout plus 5 s).
 */
async function putBack(deps: WebhookDeps, delivery: ClaimedDelivery, path: CappedPath) {
  deps.metrics.capped.inc({ path });
  if (deps.cap?.firstNoticeInAWhile(delivery.subscription_id)) {
    deps.logger.info(
      { subscription_id: delivery.subscription_id, cap: deps.cap.max, path },
      'delivery put back: its subscription has its cap of attempts in flight',
    );
  }
  const leaseUntil = new Date(Math.max(deps.now().getTime(), Date.now()) + leaseMs(deps));
  try {
    await releaseDelivery(deps, delivery.delivery_id, delivery.attempt_count, leaseUntil);
  } catch (err) {
    deps.logger.warn(
      { err, delivery_id: delivery.delivery_id },
      'capped delivery kept its lease; it is sent once the lease lapses',
    );
  }
}
