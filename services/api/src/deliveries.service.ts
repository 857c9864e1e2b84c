import {
  ACTIVITY_TYPES,
  type ActivityType,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from '@leadhook/contracts';
import { idFloor, type PrismaClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';
import {
  type Chain,
  type ChainHeads,
  chainHeads,
  chainKey,
  pendingPageIds,
} from './delivery-chains.queries.js';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import { findSubscription } from './subscriptions.service.js';

/**
 * The delivery log and its two repair actions (docs/api.md, "Deliveries"; Svix's
 * message destination and attempt). Redeliver and recover reset rows and then,
 * after the commit, enqueue the head of each chain they touched under the key
 * the webhook worker uses (`delivery-<id>-<attempt>`), so a healthy subscriber
 * gets it at once. The row is the truth: if Redis is away, the webhook worker's
 * reconciler finds the due head in PostgreSQL within its interval. The
 * webhook-id of a redelivery is the activity id, unchanged, so receivers
 * deduplicate it.
 */

/** What redeliver and recover need besides the database: the producers and a logger. */
export interface DeliveryActionDeps {
  prisma: PrismaClient;
  queues: QueueSet;
  logger: Logger;
}

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

/** The statuses the store keeps (`queued` is computed at read). */
const STORED_STATUSES = ['pending', 'succeeded', 'failed'] as const;
type StoredStatus = (typeof STORED_STATUSES)[number];

function isStoredStatus(value: string): value is StoredStatus {
  return STORED_STATUSES.some((s) => s === value);
}

function isActivityType(value: string): value is ActivityType {
  return ACTIVITY_TYPES.some((t) => t === value);
}

/** The heads of the chains of the pending rows among `rows`. */
function headsOfPending(prisma: PrismaClient, rows: readonly DeliveryRow[]): Promise<ChainHeads> {
  return chainHeads(
    prisma,
    rows.filter((r) => r.status === 'pending'),
  );
}

/**
 * The API shape of a delivery. A pending delivery that is not its chain's head
 * is `queued`, waiting for the head. attempt_count is the number of tries
 * listed: the row's own attempt_count is its place in the retry schedule, which
 * a redelivery starts again. Each attempt's next_attempt_at is when the try
 * after it happened, or, for the last try of a pending delivery, when the next
 * one is due.
 */
export function presentDelivery(row: DeliveryRow, heads: ChainHeads): Delivery {
  // CHECK constraints keep these columns inside their enums.
  if (!isStoredStatus(row.status) || !isActivityType(row.activity.activityType)) {
    throw new Error(`delivery ${row.id} has an out-of-contract status or activity type`);
  }
  const head = row.status === 'pending' ? heads.get(chainKey(row)) : undefined;
  const waitingFor = head !== undefined && head.id !== row.id ? head.id : null;
  const status: DeliveryStatus = waitingFor === null ? row.status : 'queued';
  const pendingNext = status === 'pending' ? row.nextAttemptAt : null;
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
    status,
    waiting_for: waitingFor,
    attempt_count: row.attempts.length,
    next_attempt_at: pendingNext?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    attempts,
  };
}

/**
 * Which deliveries a list shows: one status, and a period of `created_at`
 * (`from` the first instant included, `until` the first no longer included).
 */
export interface DeliveryFilter {
  status?: DeliveryStatus | undefined;
  from?: Date | undefined;
  until?: Date | undefined;
}

/**
 * How long before its created_at a delivery's id may have been made. Fan-out
 * makes the id (leadhook_new_id: clock_timestamp()) inside the transaction whose
 * start is created_at (now()), so never before it; the margin covers a clock
 * stepped back and ids made by an application clock (the test factories).
 */
const ID_CLOCK_MARGIN_MS = 86_400_000;

/**
 * The least id a delivery created from `from` on can have: the walk newest first
 * by id stops there instead of reading the subscription's older history (the
 * last page of a period, an empty one). created_at stays the condition; this
 * only bounds the index range.
 */
export function deliveryIdFloor(from: Date): string {
  return idFloor('delivery', new Date(from.getTime() - ID_CLOCK_MARGIN_MS));
}

/** A page of a subscription's deliveries, newest first, optionally of one status and period. */
export async function listDeliveries(
  prisma: PrismaClient,
  accountId: string,
  subscriptionId: string,
  page: PageRequest,
  filter: DeliveryFilter,
): Promise<{ kind: 'ok'; page: Page<Delivery> } | { kind: 'not_found' }> {
  if (!(await findSubscription(prisma, accountId, subscriptionId))) return { kind: 'not_found' };
  let rows: DeliveryRow[];
  if (filter.status === 'pending' || filter.status === 'queued') {
    const ids = await pendingPageIds(prisma, subscriptionId, filter.status, page, {
      ...filter,
      idFloor: filter.from === undefined ? undefined : deliveryIdFloor(filter.from),
    });
    rows = await prisma.delivery.findMany({
      where: { id: { in: ids } },
      include: DELIVERY_INCLUDE,
      orderBy: { id: 'desc' },
    });
  } else {
    const created =
      filter.from === undefined && filter.until === undefined
        ? {}
        : { createdAt: { gte: filter.from, lt: filter.until } };
    // An AND of its own: keyset's cursor condition is on id too.
    const floor =
      filter.from === undefined ? {} : { AND: [{ id: { gte: deliveryIdFloor(filter.from) } }] };
    rows = await prisma.delivery.findMany({
      ...keyset(page, {
        subscriptionId,
        ...(filter.status !== undefined ? { status: filter.status } : {}),
        ...created,
        ...floor,
      }),
      include: DELIVERY_INCLUDE,
    });
  }
  const heads = await headsOfPending(prisma, rows.slice(0, page.limit));
  return { kind: 'ok', page: pageOf(rows, page, (row) => presentDelivery(row, heads)) };
}

/** The deliveries of the account's live subscriptions: the scope of every delivery action. */
const ofAccount = (accountId: string) => ({ subscription: { accountId, deletedAt: null } });

/** One delivery of the account, as the log shows it. */
export async function getDelivery(
  prisma: PrismaClient,
  accountId: string,
  deliveryId: string,
): Promise<{ kind: 'ok'; delivery: Delivery } | { kind: 'not_found' }> {
  const row = await prisma.delivery.findFirst({
    where: { id: deliveryId, ...ofAccount(accountId) },
    include: DELIVERY_INCLUDE,
  });
  if (!row) return { kind: 'not_found' };
  return { kind: 'ok', delivery: presentDelivery(row, await headsOfPending(prisma, [row])) };
}

/**
 * Enqueues the head of each chain (the job the webhook worker would enqueue for
 * it), after the reset committed. A chain whose head is another delivery (an
 * earlier one still pending) gets that head's job: the reset one follows it. A
 * job Redis already holds pending is left as it is; one that finished (attempt 0
 * ran before) does not stop a new one (QueueSet.requeueMany).
 * Redis away: logged, and the reconciler sends the due heads from PostgreSQL.
 */
async function enqueueHeads(deps: DeliveryActionDeps, chains: readonly Chain[]): Promise<void> {
  const heads = [...(await chainHeads(deps.prisma, chains)).values()];
  const payloads = heads.map((h) => ({ delivery_id: h.id, attempt: h.attemptCount }));
  for (let i = 0; i < payloads.length; i += ENQUEUE_BATCH) {
    try {
      await deps.queues.requeueMany('delivery', payloads.slice(i, i + ENQUEUE_BATCH));
    } catch (err) {
      deps.logger.warn(
        { err, deliveries: payloads.length - i },
        'redelivery enqueue failed; the webhook worker reconciler will send them',
      );
      return;
    }
  }
}

/** Jobs per Redis round trip when a recover enqueues many chains. */
const ENQUEUE_BATCH = 500;

/**
 * Sends a delivery again, whatever its status, with the same webhook-id (the
 * activity id): pending, the whole retry schedule again, due now, and enqueued
 * at once. The earlier attempts stay in the log and in attempt_count.
 */
export async function redeliver(
  deps: DeliveryActionDeps,
  accountId: string,
  deliveryId: string,
  now: Date = new Date(),
): Promise<{ kind: 'ok'; delivery: Delivery } | { kind: 'not_found' }> {
  const { prisma } = deps;
  // webhook_redeliver (prisma/functions/webhook/webhook_redeliver.sql) writes
  // the reset, beside the worker's functions: one writer of delivery state.
  const [reset] = await prisma.$queryRaw<{ found: boolean }[]>`
    SELECT webhook_redeliver(${deliveryId}, ${accountId}, ${now}) AS found`;
  if (!reset?.found) return { kind: 'not_found' };
  const row = await prisma.delivery.findUniqueOrThrow({
    where: { id: deliveryId },
    include: DELIVERY_INCLUDE,
  });
  const heads = await headsOfPending(prisma, [row]);
  await enqueueHeads(deps, [row]);
  return { kind: 'ok', delivery: presentDelivery(row, heads) };
}

/**
 * Svix's "recover": every failed delivery of the subscription created at or
 * after `since` is reset as redeliver does, and the head of each chain it
 * touched is enqueued. Pending and succeeded ones are left alone
 * (webhook_recover, prisma/functions/webhook/webhook_recover.sql: one statement,
 * so a concurrent worker sees each row either before or after the reset).
 */
export async function recoverDeliveries(
  deps: DeliveryActionDeps,
  accountId: string,
  subscriptionId: string,
  since: Date,
  now: Date = new Date(),
): Promise<{ kind: 'ok'; recovered: number } | { kind: 'not_found' }> {
  const { prisma } = deps;
  if (!(await findSubscription(prisma, accountId, subscriptionId))) return { kind: 'not_found' };
  const reset = await prisma.$queryRaw<{ lead_id: string }[]>`
    SELECT lead_id FROM webhook_recover(${subscriptionId}, ${since}, ${now})`;
  await enqueueHeads(
    deps,
    reset.map((r) => ({ subscriptionId, leadId: r.lead_id })),
  );
  return { kind: 'ok', recovered: reset.length };
}
