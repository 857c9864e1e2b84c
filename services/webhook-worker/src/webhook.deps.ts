import type { MicroBatcher, Pool } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';
import type { Resolve } from '@leadhook/webhooks';
import type { ClaimedDelivery } from './delivery/claimed-delivery.model.js';
import type { AttemptRecord } from './delivery/delivery.queries.js';
import type { FanOutItem, FanOutRow } from './fanout.queries.js';
import type { SendSlots } from './send-slots.js';
import type { SubscriptionCap } from './subscription-cap.js';
import type { WebhookMetrics } from './webhook.metrics.js';

/** What the webhook worker's jobs use; the component builds it from config. */
export interface WebhookDeps {
  /**
   * The hot path's pool: fan-out and every attempt are one SQL function call
   * each (prisma/functions/webhook/), sent through plain pg
   * (about half Prisma's cost per statement).
   */
  pool: Pool;
  queues: QueueSet;
  logger: Logger;
  /** WEBHOOK_TIMEOUT_MS */
  timeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: the delay before each attempt (N entries, N attempts). */
  retryScheduleMs: readonly number[];
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS */
  allowPrivateTargets: boolean;
  now: () => Date;
  /** In [0, 1): the retry jitter's source (tests pin it). */
  random: () => number;
  /** Name resolution for the SSRF guard (tests stub it); dns.lookup by default. */
  resolve?: Resolve;
  /** True once the process is stopping: jobs then stop going down their chains. */
  stopping: () => boolean;
  /**
   * Aborted at the drain deadline of a stop: the attempts still in flight are
   * interrupted and handed back (delivery/hand-back.handler.ts).
   */
  interrupt: AbortSignal;
  metrics: WebhookMetrics;
  /**
   * Where a fan-out sends the heads it claims itself (fanout.job.ts); absent, every
   * head goes to the delivery queue.
   */
  slots?: SendSlots;
  /**
   * WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION, over every process (subscription-cap.ts);
   * every send goes through delivery/cap.runner.ts. Absent (SQL tests): no cap.
   */
  cap?: SubscriptionCap;
  /**
   * Where attempts are recorded: recordAttempts (delivery/delivery.queries.ts) through a
   * MicroBatcher, so the attempts that finish while one record runs share the next.
   */
  records: MicroBatcher<AttemptRecord, ClaimedDelivery>;
  /** Where fan-outs run: fanOutMany (fanout.queries.ts) through a MicroBatcher, likewise. */
  fanOuts: MicroBatcher<FanOutItem, FanOutRow>;
}

/**
 * Enqueues a delivery attempt, due at `dueAt` (null: now), unless a job for it is
 * live (QueueSet.enqueue); one whose job finished (it ran and returned early,
 * e.g. as not yet the chain's head) gets a new one. Fails when Redis is away:
 * the caller logs it and the reconciler, which reads PostgreSQL, enqueues it later.
 */
export async function enqueueDelivery(
  deps: Pick<WebhookDeps, 'queues' | 'now'>,
  deliveryId: string,
  attempt: number,
  dueAt: Date | null,
): Promise<void> {
  await enqueueDeliveries(deps, [{ deliveryId, attempt, dueAt }]);
}

/**
 * enqueueDelivery for many attempts in one round trip (BullMQ addBulk). Fails
 * when Redis is away (the reconciler enqueues them from PostgreSQL later).
 */
export async function enqueueDeliveries(
  deps: Pick<WebhookDeps, 'queues' | 'now'>,
  heads: readonly { deliveryId: string; attempt: number; dueAt: Date | null }[],
): Promise<void> {
  const now = deps.now().getTime();
  await deps.queues.addMany(
    'delivery',
    heads.map((head) => ({
      payload: { delivery_id: head.deliveryId, attempt: head.attempt },
      delayMs: head.dueAt ? Math.max(0, head.dueAt.getTime() - now) : 0,
    })),
  );
}

/** enqueueDelivery, logging instead of throwing: the reconciler covers a failed enqueue. */
export async function enqueueOrLog(
  deps: Pick<WebhookDeps, 'queues' | 'now' | 'logger'>,
  deliveryId: string,
  attempt: number,
  dueAt: Date | null,
): Promise<void> {
  try {
    await enqueueDelivery(deps, deliveryId, attempt, dueAt);
  } catch (err) {
    deps.logger.warn(
      { err, delivery_id: deliveryId },
      'delivery enqueue failed; the reconciler will send it',
    );
  }
}
