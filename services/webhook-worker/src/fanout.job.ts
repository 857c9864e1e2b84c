import { type AttemptReport, logAttempt } from './delivery/attempt.sender.js';
import { runUnderCap } from './delivery/cap.runner.js';
import { claimedDeliveryFromRow } from './delivery/claimed-delivery.model.js';
import { leaseMs } from './delivery/delivery.queries.js';
import { releaseLease } from './delivery/hand-back.handler.js';
import { jittered } from './delivery/retry.policy.js';
import type { FanOutRow } from './fanout.queries.js';
import { enqueueDeliveries, enqueueOrLog, type WebhookDeps } from './webhook.deps.js';

export type FanOutResult =
  | {
      kind: 'fanned_out';
      activities: number;
      deliveries: number;
      /** Chain heads handed to the delivery queue. */
      heads: number;
      /** Chain heads claimed by the fan-out and being sent by this process. */
      sent: number;
    }
  | { kind: 'already_done' }
  | { kind: 'activity_not_found' };

/**
 * Heads one fan-out claims for itself at most (one per subscription it reaches):
 * its reservation is held for its transaction, so a few per fan-out leave slots
 * for the other fan-outs running at once; heads beyond it are enqueued.
 */
export const CLAIM_PER_FAN_OUT = 4;

/**
 * Fans an activity out to its subscriptions (docs/webhooks.md) with the SQL function
 * webhook_fan_out (in a transaction shared with the fan-outs other jobs asked
 * for meanwhile: deps.fanOuts; the header of
 * prisma/functions/webhook/webhook_fan_out.sql says what it guarantees: a delivery per
 * selecting subscription, the outbox row closed, idempotent, chains ordered
 * even when a lead's fan-outs run out of order), through webhook_fan_out_claim:
 * the new chain heads that are due now are claimed in the same transaction, as
 * many as this process has free sending slots (deps.slots), and sent at once
 * from here, each in its slot and outside this job (the bypass of a delivery job
 * and of a claim transaction per delivery), under its subscription's cap
 * (delivery/cap.runner.ts). The other
 * heads are enqueued in one round trip. Every new delivery's first attempt is due
 * after the schedule's first entry, with one jitter for the fan-out.
 */
export async function fanOut(
  deps: WebhookDeps,
  activityId: string,
  onAttempt: (report: AttemptReport) => void = (report) => logAttempt(deps.logger, report),
): Promise<FanOutResult> {
  const slots = deps.slots;
  const reserved = slots && !deps.stopping() ? slots.reserve(CLAIM_PER_FAN_OUT) : 0;
  let row: FanOutRow;
  try {
    row = await deps.fanOuts.submit({
      activity_id: activityId,
      first_delay_ms: jittered(deps.retryScheduleMs[0] ?? 0, deps.random),
      claim: reserved,
    });
  } catch (err) {
    slots?.release(reserved);
    throw err;
  }
  // The reserved slots it did not claim go back.
  slots?.release(reserved - (row.claimed?.length ?? 0));
  if (row.result !== 'fanned_out') return { kind: row.result };

  for (const claimed of row.claimed ?? []) {
    const delivery = claimedDeliveryFromRow(claimed);
    const started = slots?.run(async () => {
      try {
        const result = await runUnderCap(deps, delivery, 'fan_out', onAttempt);
        // No job holds it: one waits in Redis for a worker that is not stopping.
        if (result.kind === 'handed_back') {
          await enqueueOrLog(deps, result.deliveryId, result.attempt, null);
        }
        // Over its subscription's cap: a slot holder sends it, or this job after
        // the cap's ttl (as a capped delivery job waits: delivery/delivery.job.ts).
        if (result.kind === 'capped') {
          const dueAt = new Date(deps.now().getTime() + (deps.cap?.ttlMs ?? 0));
          await enqueueOrLog(deps, result.deliveryId, result.attempt, dueAt);
        }
      } catch (err) {
        // Its lease lapses and the reconciler enqueues it again (at-least-once).
        deps.logger.error(
          { err, delivery_id: delivery.delivery_id },
          'delivery failed; the reconciler will retry it once its lease lapses',
        );
      }
    });
    if (!started) {
      // Stopping: its lease (from the claim, just now) is handed back and a job
      // waits in Redis for a worker that is not stopping, as for an interrupted
      // attempt; failing that, the reconciler sends it once the lease lapses.
      const failure = await releaseLease(deps, delivery, new Date(Date.now() + leaseMs(deps)));
      if (failure === undefined) {
        await enqueueOrLog(deps, delivery.delivery_id, delivery.attempt_count, null);
        deps.logger.info(
          { delivery_id: delivery.delivery_id },
          'stopping: claimed delivery handed back unsent',
        );
      } else {
        deps.logger.info(
          { delivery_id: delivery.delivery_id, err: failure },
          'stopping: delivery left to the reconciler once its lease lapses',
        );
      }
    }
  }

  const heads = (row.heads ?? []).map((h) => ({
    deliveryId: h.id,
    attempt: h.attempt_count,
    dueAt: h.due_ms === null ? null : new Date(h.due_ms),
  }));
  // New heads and heads that waited behind a delivery now gone alike: one whose
  // job finished gets a new one, one whose job is live is left as it is.
  try {
    await enqueueDeliveries(deps, heads);
  } catch (err) {
    deps.logger.warn(
      { err, activity_id: activityId },
      'delivery enqueue failed; the reconciler will send them',
    );
  }
  return {
    kind: 'fanned_out',
    activities: row.activities ?? 0,
    deliveries: row.deliveries ?? 0,
    heads: heads.length,
    sent: row.claimed?.length ?? 0,
  };
}
