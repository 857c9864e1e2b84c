import { WORKER_DISABLE_REASONS, type WorkerDisableReason } from '../webhook.metrics.js';

/** What became of the attempt just recorded (webhook_record_attempt); `stale`: the row had moved on. */
export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'disabled';

/** Why a claim did not lease the delivery it was asked for (webhook_claim). */
export type SkipReason = 'not_found' | 'terminal' | 'stale' | 'not_head' | 'subscription_disabled';

/**
 * The answer of claiming a delivery: `claimed` (this worker holds its lease),
 * a SkipReason, `busy` (another worker holds the lease), `not_due`, `unclaimed`
 * (not asked to claim), or null (no delivery: the chain is empty).
 */
export type ClaimAnswer = 'claimed' | SkipReason | 'busy' | 'not_due' | 'unclaimed';

/**
 * A row of the SQL type webhook_step (prisma/functions/webhook/webhook_step.sql),
 * as webhook_claim, webhook_record_attempt(s) and webhook_fan_out_claim answer:
 * the outcome of the attempt just recorded (records only), then a delivery, what
 * became of claiming it, and everything its webhook body and signature need.
 */
export interface ClaimedDelivery {
  outcome: DeliveryOutcome | 'stale' | null;
  retry_at: Date | null;
  disabled_now: boolean | null;
  disabled_reason: WorkerDisableReason | null;
  claim: ClaimAnswer | null;
  delivery_id: string;
  attempt_count: number;
  due_at: Date | null;
  subscription_id: string;
  lead_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  activity_id: string;
  activity_type: string;
  activity_label: string;
  occurred_at: Date;
  note: string;
  data: unknown;
  activity_enrollment_id: string | null;
  lead_external_id: string | null;
  lead_source_name: string;
  lead_first_name: string;
  lead_last_name: string;
  lead_email: string;
  lead_opted_out: boolean;
  lead_created_at: Date;
  lead_extra: unknown;
  lead_enrollment_id: string | null;
  source_id: string;
  source_name: string;
  playbook_id: string;
  playbook_name: string;
}

const OUTCOMES: ReadonlySet<string> = new Set<DeliveryOutcome | 'stale'>([
  'succeeded',
  'retry',
  'failed',
  'disabled',
  'stale',
]);
const CLAIMS: ReadonlySet<string> = new Set<ClaimAnswer>([
  'claimed',
  'not_found',
  'terminal',
  'stale',
  'not_head',
  'subscription_disabled',
  'busy',
  'not_due',
  'unclaimed',
]);
const DISABLE_REASONS: ReadonlySet<string> = new Set<string>(WORKER_DISABLE_REASONS);

/**
 * A webhook_step row, from pg (times as Dates) or after travelling as JSON
 * (to_jsonb in webhook_fan_out_claim: times as ISO strings). Columns are NULL
 * where the row has nothing to say (a stale record carries only its outcome),
 * so text and times read as given, NULL kept.
 */
export function claimedDeliveryFromRow(row: Readonly<Record<string, unknown>>): ClaimedDelivery {
  const text = (key: string) => row[key] as string;
  const textOrNull = (key: string) => (row[key] ?? null) as string | null;
  const time = (key: string) => dateOrNull(row[key]) as Date;
  const oneOf = <T extends string>(key: string, allowed: ReadonlySet<string>): T | null => {
    const value = row[key];
    if (value == null) return null;
    if (typeof value !== 'string' || !allowed.has(value)) {
      throw new Error(`webhook_step.${key} is ${String(value)}`);
    }
    return value as T;
  };
  return {
    outcome: oneOf<DeliveryOutcome | 'stale'>('outcome', OUTCOMES),
    retry_at: dateOrNull(row.retry_at),
    disabled_now: (row.disabled_now ?? null) as boolean | null,
    disabled_reason: oneOf<WorkerDisableReason>('disabled_reason', DISABLE_REASONS),
    claim: oneOf<ClaimAnswer>('claim', CLAIMS),
    delivery_id: text('delivery_id'),
    attempt_count: row.attempt_count as number,
    due_at: dateOrNull(row.due_at),
    subscription_id: text('subscription_id'),
    lead_id: text('lead_id'),
    url: text('url'),
    secret: text('secret'),
    previous_secret: textOrNull('previous_secret'),
    previous_secret_expires_at: dateOrNull(row.previous_secret_expires_at),
    activity_id: text('activity_id'),
    activity_type: text('activity_type'),
    activity_label: text('activity_label'),
    occurred_at: time('occurred_at'),
    note: text('note'),
    data: row.data,
    activity_enrollment_id: textOrNull('activity_enrollment_id'),
    lead_external_id: textOrNull('lead_external_id'),
    lead_source_name: text('lead_source_name'),
    lead_first_name: text('lead_first_name'),
    lead_last_name: text('lead_last_name'),
    lead_email: text('lead_email'),
    lead_opted_out: row.lead_opted_out as boolean,
    lead_created_at: time('lead_created_at'),
    lead_extra: row.lead_extra,
    lead_enrollment_id: textOrNull('lead_enrollment_id'),
    source_id: text('source_id'),
    source_name: text('source_name'),
    playbook_id: text('playbook_id'),
    playbook_name: text('playbook_name'),
  };
}

function dateOrNull(value: unknown): Date | null {
  if (value == null) return null;
  if (value instanceof Date) return value;
  return new Date(value as string);
}
