import {
  ACTIVITY_TYPES,
  type ActivityType,
  DELIVERY_STATUSES,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import { findSubscription } from './subscriptions.service.js';

/**
 * The delivery log and its two repair actions (docs/api.md, "Deliveries"; Svix's
 * message destination and attempt). Redeliver and recover only reset rows: the
 * row is the truth, and the webhook worker's reconciler picks up every pending
 * delivery whose next_attempt_at has passed and enqueues it. The webhook-id of a
 * redelivery is the activity id, unchanged, so receivers deduplicate it.
 */

interface AttemptRow {
  id: string;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

interface DeliveryRow {
  id: string;
  subscriptionId: string;
  activityId: string;
  leadId: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  activity: { activityType: string; activityLabel: string };
  attempts: AttemptRow[];
}

/** What a delivery read needs from its relations: the activity's label, the tries oldest first. */
const DELIVERY_INCLUDE = {
  activity: { select: { activityType: true, activityLabel: true } },
  attempts: { orderBy: [{ attemptedAt: 'asc' as const }, { id: 'asc' as const }] },
};

function isDeliveryStatus(value: string): value is DeliveryStatus {
  return DELIVERY_STATUSES.some((s) => s === value);
}

function isActivityType(value: string): value is ActivityType {
  return ACTIVITY_TYPES.some((t) => t === value);
}

/**
 * The API shape of a delivery. Each attempt's next_attempt_at is when the try
 * after it happened, or, for the last try of a pending delivery, when the next
 * one is due.
 */
export function presentDelivery(row: DeliveryRow): Delivery {
  // CHECK constraints keep these columns inside their enums.
  if (!isDeliveryStatus(row.status) || !isActivityType(row.activity.activityType)) {
    throw new Error(`delivery ${row.id} has an out-of-contract status or activity type`);
  }
  const pendingNext = row.status === 'pending' ? row.nextAttemptAt : null;
  const attempts: DeliveryAttempt[] = row.attempts.map((attempt, index) => {
    const next = row.attempts[index + 1]?.attemptedAt ?? pendingNext;
    return {
      id: attempt.id,
      attempted_at: attempt.attemptedAt.toISOString(),
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error: attempt.error,
      response_body: attempt.responseBody,
      next_attempt_at: next?.toISOString() ?? null,
    };
  });
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    activity_id: row.activityId,
    activity_type: row.activity.activityType,
    activity_label: row.activity.activityLabel,
    lead_id: row.leadId,
    status: row.status,
    attempt_count: row.attemptCount,
    next_attempt_at: pendingNext?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    attempts,
  };
}

/** A page of a subscription's deliveries, newest first, optionally of one status. */
export async function listDeliveries(
  prisma: PrismaClient,
  accountId: string,
  subscriptionId: string,
  page: PageRequest,
  filter: { status?: DeliveryStatus | undefined },
): Promise<{ kind: 'ok'; page: Page<Delivery> } | { kind: 'not_found' }> {
  if (!(await findSubscription(prisma, accountId, subscriptionId))) return { kind: 'not_found' };
  const { where, ...order } = keyset(page);
  const rows = await prisma.delivery.findMany({
    where: {
      subscriptionId,
      ...(filter.status !== undefined ? { status: filter.status } : {}),
      ...where,
    },
    include: DELIVERY_INCLUDE,
    ...order,
  });
  return { kind: 'ok', page: pageOf(rows, page, presentDelivery) };
}

/** What a reset writes: pending, a fresh retry schedule, due now. */
function resetForRedelivery(now: Date) {
  return { status: 'pending', attemptCount: 0, nextAttemptAt: now, updatedAt: now };
}

/** The deliveries of the account's live subscriptions: the scope of every delivery action. */
const ofAccount = (accountId: string) => ({ subscription: { accountId, deletedAt: null } });

/**
 * Sends a delivery again, whatever its status, with the same webhook-id (the
 * activity id): pending, attempt_count 0 (the whole retry schedule again),
 * next_attempt_at now. The earlier attempts stay in the log.
 */
export async function redeliver(
  prisma: PrismaClient,
  accountId: string,
  deliveryId: string,
  now: Date = new Date(),
): Promise<{ kind: 'ok'; delivery: Delivery } | { kind: 'not_found' }> {
  const { count } = await prisma.delivery.updateMany({
    where: { id: deliveryId, ...ofAccount(accountId) },
    data: resetForRedelivery(now),
  });
  if (count === 0) return { kind: 'not_found' };
  const row = await prisma.delivery.findUniqueOrThrow({
    where: { id: deliveryId },
    include: DELIVERY_INCLUDE,
  });
  return { kind: 'ok', delivery: presentDelivery(row) };
}

/**
 * Svix's "recover": every failed delivery of the subscription created at or
 * after `since` is reset as redeliver does. Pending and succeeded ones are left
 * alone. One statement, so a concurrent worker sees each row either before or
 * after the reset.
 */
export async function recoverDeliveries(
  prisma: PrismaClient,
  accountId: string,
  subscriptionId: string,
  since: Date,
  now: Date = new Date(),
): Promise<{ kind: 'ok'; recovered: number } | { kind: 'not_found' }> {
  if (!(await findSubscription(prisma, accountId, subscriptionId))) return { kind: 'not_found' };
  const { count } = await prisma.delivery.updateMany({
    where: { subscriptionId, status: 'failed', createdAt: { gte: since } },
    data: resetForRedelivery(now),
  });
  return { kind: 'ok', recovered: count };
}
