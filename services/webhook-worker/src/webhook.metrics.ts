import type { AttemptResult } from '@leadhook/webhooks';
import type { Counter, Histogram } from 'prom-client';

/**
 * The webhook worker's metrics and the label values it counts
 * (docs/operations.md, "Metrics"), as constants: infra/metrics-docs.test.ts
 * checks the docs' table against them.
 */

export interface WebhookMetrics {
  deliveries: Counter<'result'>;
  attemptDuration: Histogram<'outcome'>;
  subscriptionsDisabled: Counter<'reason'>;
  capped: Counter<'path'>;
}

/** `result` of leadhook_webhook_deliveries_total: a delivery's final states. */
export const DELIVERY_RESULTS = ['succeeded', 'failed'] as const;

/**
 * `outcome` of leadhook_webhook_attempt_duration_seconds (attemptOutcome):
 * `refused` is the SSRF guard refusing the target; a connection the subscriber
 * refuses (ECONNREFUSED), like any other transport error, is `network_error`.
 */
export const ATTEMPT_OUTCOMES = [
  'success',
  'http_error',
  'timeout',
  'refused',
  'network_error',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** `reason` of leadhook_webhook_subscriptions_disabled_total: why the worker disabled one. */
export const WORKER_DISABLE_REASONS = ['gone', 'failing'] as const;
export type WorkerDisableReason = (typeof WORKER_DISABLE_REASONS)[number];

/**
 * `path` of leadhook_webhook_deliveries_capped_total: where a delivery claimed
 * over its subscription's cap was put back (delivery/cap.runner.ts): a delivery
 * job's own claim, or a head a fan-out claimed to send itself.
 */
export const CAPPED_PATHS = ['delivery_job', 'fan_out'] as const;
export type CappedPath = (typeof CAPPED_PATHS)[number];

/**
 * `reason` of leadhook_webhook_subscriptions_disabled (disabled-subscriptions.metrics.ts):
 * a disabled subscription's disabled_code, `manual` (the account turned it off),
 * `gone` (a 410), `failing` (5 days of failures), or `other` (a row disabled
 * without a code); every reason is exported, 0 when none.
 */
export const DISABLED_REASONS = ['manual', 'gone', 'failing', 'other'] as const;

/**
 * Every documented series at 0 from the start (docs/operations.md, "Metrics"),
 * so rates exist before the first delivery and a scrape shows each label value.
 */
export function zeroWebhookMetrics(metrics: WebhookMetrics): void {
  for (const result of DELIVERY_RESULTS) metrics.deliveries.inc({ result }, 0);
  for (const outcome of ATTEMPT_OUTCOMES) metrics.attemptDuration.zero({ outcome });
  for (const reason of WORKER_DISABLE_REASONS) metrics.subscriptionsDisabled.inc({ reason }, 0);
  for (const path of CAPPED_PATHS) metrics.capped.inc({ path }, 0);
}

/** A short outcome label of an attempt, for the duration histogram. */
export function attemptOutcome(result: AttemptResult): AttemptOutcome {
  if (result.ok) return 'success';
  if (result.statusCode !== null) return 'http_error';
  if (result.error?.startsWith('refused:')) return 'refused';
  if (result.error?.startsWith('timeout')) return 'timeout';
  return 'network_error';
}
