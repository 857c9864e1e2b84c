import { answersByItem } from './batch-answers.js';
import { type DeliveryDb, leaseMs } from './delivery/delivery.queries.js';

/** A webhook_fan_out_claim answer (prisma/functions/webhook/webhook_fan_out_claim.sql), as JSON. */
export interface FanOutRow {
  result: 'fanned_out' | 'already_done' | 'activity_not_found';
  activities?: number;
  deliveries?: number;
  heads?: { id: string; attempt_count: number; due_ms: number | null; created: boolean }[];
  claimed?: Record<string, unknown>[];
}

/** One fan-out to run: the arguments of webhook_fan_out_claim that are the item's own. */
export interface FanOutItem {
  activity_id: string;
  /** The schedule's first entry, with one jitter for the fan-out. */
  first_delay_ms: number;
  /** Send slots reserved: at most this many new heads are claimed for this process. */
  claim: number;
}

/**
 * Fans activities out in one transaction (webhook_fan_out_claims,
 * prisma/functions/webhook/webhook_fan_out_claims.sql: each item as
 * webhook_fan_out_claim does it alone); the
 * answers in the items' order. The worker calls it through deps.fanOuts, which
 * gathers the fan-outs asked for while one runs into the next call.
 */
export async function fanOutMany(
  deps: DeliveryDb,
  items: readonly FanOutItem[],
): Promise<FanOutRow[]> {
  const { rows } = await deps.pool.query<{ item: number; result: FanOutRow }>(
    'SELECT r.item, r.result FROM webhook_fan_out_claims($1, $2, $3) r',
    [JSON.stringify(items), deps.now(), leaseMs(deps)],
  );
  return answersByItem(rows, items.length, 'webhook_fan_out_claims').map((answer) => answer.result);
}
