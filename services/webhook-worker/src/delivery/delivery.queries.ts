import type { Pool } from '@leadhook/db';
import { answersByItem } from '../batch-answers.js';
import { type ClaimedDelivery, claimedDeliveryFromRow } from './claimed-delivery.model.js';
import { DISABLE_AFTER_FAILING_MS } from './retry.policy.js';

/**
 * The webhook worker's calls of the delivery functions
 * (prisma/functions/webhook/): each is one statement, the function holding the
 * locks and writing the rows; their headers say what each guarantees.
 */

/** What the calls below need of the worker's deps. */
export interface DeliveryDb {
  pool: Pool;
  now: () => Date;
  /** WEBHOOK_TIMEOUT_MS: a lease covers one attempt and its record. */
  timeoutMs: number;
}

/** The lease on a delivery being tried: the attempt's timeout plus time to record it. */
const LEASE_MARGIN_MS = 5000;

/** How long a claim leases a delivery for (every claim asks for this). */
export function leaseMs(deps: Pick<DeliveryDb, 'timeoutMs'>): number {
  return deps.timeoutMs + LEASE_MARGIN_MS;
}

/** webhook_claim: attempt `attempt` of the delivery, leased to this worker if it is the due head. */
export async function claimDelivery(
  deps: DeliveryDb,
  deliveryId: string,
  attempt: number,
): Promise<ClaimedDelivery> {
  const { rows } = await deps.pool.query<Record<string, unknown>>(
    'SELECT * FROM webhook_claim($1, $2, $3, $4)',
    [deliveryId, attempt, deps.now(), leaseMs(deps)],
  );
  const row = rows[0];
  if (!row) throw new Error('webhook_claim returned no row');
  return claimedDeliveryFromRow(row);
}

/**
 * webhook_release: ends this worker's lease of attempt `attempt` of a delivery
 * (its own lease only, one ending by `leaseUntil`), so another worker claims it
 * at once.
 */
export async function releaseDelivery(
  deps: Pick<DeliveryDb, 'pool' | 'now'>,
  deliveryId: string,
  attempt: number,
  leaseUntil: Date,
): Promise<void> {
  await deps.pool.query('SELECT webhook_release($1, $2, $3, $4)', [
    deliveryId,
    attempt,
    deps.now(),
    leaseUntil,
  ]);
}

/**
 * One attempt to record: the arguments of webhook_record_attempt that are the
 * attempt's own (prisma/functions/webhook/webhook_record_attempts.sql), as JSON.
 */
export interface AttemptRecord {
  delivery_id: string;
  attempt: number;
  attempt_id: string;
  attempted_at: Date;
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  /** retryDelayMs (retry.policy.ts); null: the schedule is spent. */
  retry_delay_ms: number | null;
  /** Claim the chain's next delivery when this one is done with (the walk goes on). */
  continue: boolean;
}

/**
 * Records attempts in one transaction (webhook_record_attempts: each item as
 * webhook_record_attempt records it alone); the answers in the items' order.
 * The worker calls it through deps.records, which gathers the attempts that
 * finish while a call runs into the next one.
 */
export async function recordAttempts(
  deps: DeliveryDb,
  items: readonly AttemptRecord[],
): Promise<ClaimedDelivery[]> {
  const { rows } = await deps.pool.query<{ item: number } & Record<string, unknown>>(
    'SELECT r.item, (r.step).* FROM webhook_record_attempts($1, $2, $3, $4) r',
    [JSON.stringify(items), deps.now(), DISABLE_AFTER_FAILING_MS, leaseMs(deps)],
  );
  return answersByItem(rows, items.length, 'webhook_record_attempts').map(claimedDeliveryFromRow);
}
