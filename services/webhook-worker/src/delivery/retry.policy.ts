/**
 * The retry policy of a delivery (docs/webhooks.md, "Retries" and "Disabling"),
 * pure: what the worker decides before it records an attempt. The verdict that
 * needs the rows (a 410 fails the delivery and disables the subscription; 5 days
 * of failures disable it) is webhook_record_attempt's
 * (prisma/functions/webhook/webhook_record_attempt.sql), under the chain's lock,
 * with the period below as its argument.
 */

/** A subscription failing with no 2xx for this long is disabled (docs/webhooks.md, "Disabling"). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;

/** A Retry-After is honoured up to this long; past it the 5-day rule decides anyway. */
export const MAX_RETRY_AFTER_MS = DISABLE_AFTER_FAILING_MS;

/** The delay before the next attempt, from the schedule, with the ±20 % jitter; 0 stays 0. */
export function jittered(delayMs: number, random: () => number): number {
  if (delayMs <= 0) return 0;
  return Math.round(delayMs * (0.8 + 0.4 * random()));
}

/**
 * The delay before attempt `attempt + 1` once attempt `attempt` failed: the
 * schedule's next entry (WEBHOOK_RETRY_SCHEDULE: N entries, N attempts) with
 * jitter, and at least the answer's Retry-After (up to MAX_RETRY_AFTER_MS).
 * Null when the schedule is spent: the delivery then fails.
 */
export function retryDelayMs(
  scheduleMs: readonly number[],
  attempt: number,
  retryAfterMs: number | null | undefined,
  random: () => number,
): number | null {
  const scheduled = scheduleMs[attempt + 1];
  if (scheduled === undefined) return null;
  return Math.max(jittered(scheduled, random), Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}
