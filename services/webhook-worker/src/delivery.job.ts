import { newId, type Prisma } from '@leadhook/db';
import { type AttemptResult, buildPayload, deliver } from '@leadhook/webhooks';
import { chainHead, kickChain } from './chain.js';
import { attemptOutcome, enqueueDelivery, jittered, type WebhookDeps } from './webhook.deps.js';

/** A subscription failing with no 2xx for this long is disabled (CONTRACT §3). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
/** A Retry-After is honoured up to this long; past it the 5-day rule decides anyway. */
const MAX_RETRY_AFTER_MS = DISABLE_AFTER_FAILING_MS;
/** A job that fires this early (timer granularity) is still run. */
const DUE_TOLERANCE_MS = 250;

export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'disabled';

export type DeliveryJobResult =
  | {
      kind: 'skipped';
      reason: 'not_found' | 'terminal' | 'stale' | 'not_head' | 'subscription_disabled';
    }
  | { kind: 'not_due'; dueAt: Date }
  | {
      kind: 'attempted';
      outcome: DeliveryOutcome | 'stale';
      attempt: number;
      result: AttemptResult;
      subscriptionId: string;
      leadId: string;
      nextAttemptAt: Date | null;
    };

type Tx = Prisma.TransactionClient;

/**
 * One attempt of a delivery (DESIGN.md "Retries"). The job only says "look at
 * delivery X, attempt N": the row decides. A job for an attempt the row has moved
 * past, for a delivery already terminal, or for one that is not its chain's head
 * does nothing, so duplicates (fast path, reconciler, a stalled job run again)
 * are harmless. The HTTP try happens outside any transaction; its Attempt row and
 * the delivery's new state are then written together.
 */
export async function runDelivery(
  deps: WebhookDeps,
  job: { delivery_id: string; attempt: number },
): Promise<DeliveryJobResult> {
  const { prisma } = deps;
  const delivery = await prisma.delivery.findUnique({
    where: { id: job.delivery_id },
    include: { subscription: true },
  });
  if (!delivery) return { kind: 'skipped', reason: 'not_found' };
  if (delivery.status !== 'pending') return { kind: 'skipped', reason: 'terminal' };
  if (delivery.attemptCount !== job.attempt) return { kind: 'skipped', reason: 'stale' };
  const sub = delivery.subscription;
  if (!sub.enabled || sub.deletedAt) {
    await prisma.delivery.updateMany({
      where: { subscriptionId: sub.id, status: 'pending' },
      data: { status: 'failed', nextAttemptAt: null },
    });
    return { kind: 'skipped', reason: 'subscription_disabled' };
  }
  const head = await chainHead(prisma, sub.id, delivery.leadId);
  if (head?.id !== delivery.id) {
    // An older activity's delivery appeared after this one was enqueued: it goes first.
    await kickChain(deps, sub.id, delivery.leadId);
    return { kind: 'skipped', reason: 'not_head' };
  }
  const now = deps.now();
  if (
    delivery.nextAttemptAt &&
    delivery.nextAttemptAt.getTime() > now.getTime() + DUE_TOLERANCE_MS
  ) {
    return { kind: 'not_due', dueAt: delivery.nextAttemptAt };
  }

  const built = await buildPayload(prisma, delivery.activityId);
  if (!built) {
    await prisma.delivery.update({
      where: { id: delivery.id },
      data: { status: 'failed', nextAttemptAt: null },
    });
    await kickChain(deps, sub.id, delivery.leadId);
    return { kind: 'skipped', reason: 'not_found' };
  }
  const rotating =
    sub.previousSecret !== null &&
    sub.previousSecretExpiresAt !== null &&
    sub.previousSecretExpiresAt.getTime() > now.getTime();
  const secrets = rotating && sub.previousSecret ? [sub.secret, sub.previousSecret] : [sub.secret];

  const attemptedAt = deps.now();
  const result = await deliver({
    url: sub.url,
    body: built.body,
    id: delivery.activityId,
    secrets,
    timeoutMs: deps.timeoutMs,
    allowPrivateTargets: deps.allowPrivateTargets,
    now: deps.now,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  deps.metrics.attemptDuration.observe(
    { outcome: attemptOutcome(result) },
    result.durationMs / 1000,
  );

  const recorded = await prisma.$transaction((tx) =>
    record(deps, tx, {
      deliveryId: delivery.id,
      subscriptionId: sub.id,
      attempt: job.attempt,
      attemptedAt,
      result,
    }),
  );

  if (recorded.outcome === 'succeeded' || recorded.outcome === 'failed') {
    deps.metrics.deliveries.inc({ result: recorded.outcome });
    await kickChain(deps, sub.id, delivery.leadId);
  } else if (recorded.outcome === 'disabled') {
    deps.metrics.deliveries.inc({ result: 'failed' });
    if (recorded.disabledNow) deps.metrics.subscriptionsDisabled.inc({ reason: recorded.reason });
  } else if (recorded.outcome === 'retry' && recorded.nextAttemptAt) {
    try {
      await enqueueDelivery(deps, delivery.id, job.attempt + 1, recorded.nextAttemptAt);
    } catch (err) {
      deps.logger.warn(
        { err, delivery_id: delivery.id },
        'retry enqueue failed; the reconciler will send it',
      );
    }
  }
  return {
    kind: 'attempted',
    outcome: recorded.outcome,
    attempt: job.attempt + 1,
    result,
    subscriptionId: sub.id,
    leadId: delivery.leadId,
    nextAttemptAt: recorded.nextAttemptAt,
  };
}

interface Recorded {
  outcome: DeliveryOutcome | 'stale';
  nextAttemptAt: Date | null;
  disabledNow: boolean;
  reason: 'gone' | 'failing';
}

async function record(
  deps: WebhookDeps,
  tx: Tx,
  input: {
    deliveryId: string;
    subscriptionId: string;
    attempt: number;
    attemptedAt: Date;
    result: AttemptResult;
  },
): Promise<Recorded> {
  const { result } = input;
  // Every HTTP try is a row, even one that lost a race (it did reach the subscriber).
  await tx.attempt.create({
    data: {
      id: newId('attempt'),
      deliveryId: input.deliveryId,
      attemptedAt: input.attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      responseBody: result.responseBody,
    },
  });
  const locked = await tx.$queryRaw<{ status: string; attempt_count: number }[]>`
    SELECT status, attempt_count FROM deliveries WHERE id = ${input.deliveryId} FOR UPDATE`;
  const row = locked[0];
  const none: Recorded = {
    outcome: 'stale',
    nextAttemptAt: null,
    disabledNow: false,
    reason: 'gone',
  };
  if (row?.status !== 'pending' || row.attempt_count !== input.attempt) return none;

  const attemptCount = input.attempt + 1;
  const now = deps.now();
  const finish = (status: 'succeeded' | 'failed', nextAttemptAt: Date | null = null) =>
    tx.delivery.update({
      where: { id: input.deliveryId },
      data: { status, attemptCount, lastAttemptAt: input.attemptedAt, nextAttemptAt },
    });

  if (result.ok) {
    await finish('succeeded');
    await tx.subscription.updateMany({
      where: { id: input.subscriptionId, failingSince: { not: null } },
      data: { failingSince: null },
    });
    return { ...none, outcome: 'succeeded' };
  }
  if (result.statusCode === 410) {
    await finish('failed');
    const disabledNow = await disable(
      tx,
      input.subscriptionId,
      'The endpoint answered 410 Gone.',
      now,
    );
    return { ...none, outcome: 'disabled', disabledNow, reason: 'gone' };
  }
  const [failing] = await tx.$queryRaw<{ failing_since: Date }[]>`
    UPDATE subscriptions SET failing_since = COALESCE(failing_since, ${input.attemptedAt}::timestamptz)
     WHERE id = ${input.subscriptionId}
     RETURNING failing_since`;
  if (failing && now.getTime() - failing.failing_since.getTime() >= DISABLE_AFTER_FAILING_MS) {
    await finish('failed');
    const disabledNow = await disable(
      tx,
      input.subscriptionId,
      `Every delivery failed for 5 days (since ${failing.failing_since.toISOString()}).`,
      now,
    );
    return { ...none, outcome: 'disabled', disabledNow, reason: 'failing' };
  }
  const scheduled = deps.retryScheduleMs[attemptCount];
  if (scheduled === undefined) {
    await finish('failed');
    return { ...none, outcome: 'failed' };
  }
  const delayMs = Math.max(
    jittered(scheduled, deps.random),
    Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS),
  );
  const nextAttemptAt = new Date(now.getTime() + delayMs);
  await tx.delivery.update({
    where: { id: input.deliveryId },
    data: { attemptCount, lastAttemptAt: input.attemptedAt, nextAttemptAt },
  });
  return { ...none, outcome: 'retry', nextAttemptAt };
}

/**
 * Disables a subscription with the reason the account sees, and fails its
 * pending deliveries (nothing more will be tried until it is enabled again).
 * Returns whether this call disabled it (for the metric).
 */
async function disable(tx: Tx, subscriptionId: string, reason: string, at: Date): Promise<boolean> {
  const { count } = await tx.subscription.updateMany({
    where: { id: subscriptionId, enabled: true },
    data: { enabled: false, disabledReason: reason, disabledAt: at },
  });
  await tx.delivery.updateMany({
    where: { subscriptionId, status: 'pending' },
    data: { status: 'failed', nextAttemptAt: null },
  });
  return count === 1;
}
