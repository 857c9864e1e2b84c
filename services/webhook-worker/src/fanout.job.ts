import { enqueueNewDeliveries, enqueueOrLog, jittered, type WebhookDeps } from './webhook.deps.js';

export type FanOutResult =
  | { kind: 'fanned_out'; activities: number; deliveries: number; heads: number }
  | { kind: 'already_done' }
  | { kind: 'activity_not_found' };

interface FanOutRow {
  result: 'fanned_out' | 'already_done' | 'activity_not_found';
  activities?: number;
  deliveries?: number;
  heads?: { id: string; attempt_count: number; due_ms: number | null; created: boolean }[];
}

/**
 * Fans an activity out to its subscriptions (CONTRACT §3) with one call of the
 * SQL function webhook_fan_out (one transaction; its comment in migration
 * 20261122200000_webhook_hot_path says what it guarantees: a delivery per
 * selecting subscription, the outbox row closed, idempotent, chains ordered
 * even when a lead's fan-outs run out of order). Then the chains' new heads are
 * enqueued in one round trip. Every new delivery's first attempt is due after
 * the schedule's first entry, with one jitter for the fan-out.
 */
export async function fanOut(deps: WebhookDeps, activityId: string): Promise<FanOutResult> {
  const { rows } = await deps.pool.query<{ r: FanOutRow }>(
    'SELECT webhook_fan_out($1, $2, $3) AS r',
    [activityId, deps.now(), jittered(deps.retryScheduleMs[0] ?? 0, deps.random)],
  );
  const row = rows[0]?.r;
  if (!row) throw new Error('webhook_fan_out returned no row');
  if (row.result !== 'fanned_out') return { kind: row.result };
  const heads = (row.heads ?? []).map((h) => ({
    deliveryId: h.id,
    attempt: h.attempt_count,
    dueAt: h.due_ms === null ? null : new Date(h.due_ms),
    created: h.created,
  }));
  try {
    await enqueueNewDeliveries(
      deps,
      heads.filter((h) => h.created),
    );
  } catch (err) {
    deps.logger.warn(
      { err, activity_id: activityId },
      'delivery enqueue failed; the reconciler will send them',
    );
  }
  // A head that existed before (it waited behind a delivery that is gone) may
  // have a finished job under its id: enqueueDelivery checks.
  await Promise.all(
    heads
      .filter((h) => !h.created)
      .map((h) => enqueueOrLog(deps, h.deliveryId, h.attempt, h.dueAt)),
  );
  return {
    kind: 'fanned_out',
    activities: row.activities ?? 0,
    deliveries: row.deliveries ?? 0,
    heads: heads.length,
  };
}
