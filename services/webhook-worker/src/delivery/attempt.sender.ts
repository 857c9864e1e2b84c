import type { Logger } from '@leadhook/observability';
import { type AttemptResult, deliver, payloadOf } from '@leadhook/webhooks';
import type { WebhookDeps } from '../webhook.deps.js';
import type { ClaimedDelivery, DeliveryOutcome } from './claimed-delivery.model.js';

type Json = Parameters<typeof payloadOf>[0]['activity']['data'];

/** Signs and sends a claimed delivery (the HTTP try happens outside any transaction). */
export function sendAttempt(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  now: Date,
): Promise<AttemptResult> {
  const { body } = payloadOf({
    activity: {
      id: delivery.activity_id,
      activityType: delivery.activity_type,
      activityLabel: delivery.activity_label,
      occurredAt: delivery.occurred_at,
      note: delivery.note,
      data: delivery.data as Json,
      enrollmentId: delivery.activity_enrollment_id,
    },
    lead: {
      id: delivery.lead_id,
      externalId: delivery.lead_external_id,
      sourceName: delivery.lead_source_name,
      firstName: delivery.lead_first_name,
      lastName: delivery.lead_last_name,
      email: delivery.lead_email,
      optedOut: delivery.lead_opted_out,
      createdAt: delivery.lead_created_at,
      extra: delivery.lead_extra as Json,
      enrollmentId: delivery.lead_enrollment_id,
    },
    source: { id: delivery.source_id, name: delivery.source_name },
    playbook: { id: delivery.playbook_id, name: delivery.playbook_name },
  });
  const rotating =
    delivery.previous_secret !== null &&
    delivery.previous_secret_expires_at !== null &&
    delivery.previous_secret_expires_at.getTime() > now.getTime();
  const secrets =
    rotating && delivery.previous_secret
      ? [delivery.secret, delivery.previous_secret]
      : [delivery.secret];
  return deliver({
    url: delivery.url,
    body,
    id: delivery.activity_id,
    secrets,
    timeoutMs: deps.timeoutMs,
    allowPrivateTargets: deps.allowPrivateTargets,
    now: deps.now,
    signal: deps.interrupt,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
}

/** One HTTP try and what became of its delivery (for the log). */
export interface AttemptReport {
  deliveryId: string;
  attempt: number;
  subscriptionId: string;
  leadId: string;
  outcome: DeliveryOutcome | 'stale';
  result: AttemptResult;
}

/**
 * The log line of one attempt (no URL, body or secret: ids, outcome, status,
 * timing): a failed try at warn, since it is what an operator acts on (the
 * subscriber is down, refusing, or slow); a 2xx at debug, since at one line per
 * delivery it would drown everything else at the default level
 * (docs/operations.md "Logs").
 */
export function logAttempt(logger: Logger, report: AttemptReport): void {
  const level = report.result.ok ? 'debug' : 'warn';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      delivery_id: report.deliveryId,
      attempt: report.attempt,
      subscription_id: report.subscriptionId,
      lead_id: report.leadId,
      outcome: report.outcome,
      status_code: report.result.statusCode,
      duration_ms: report.result.durationMs,
      ...(report.result.error ? { error: report.result.error } : {}),
    },
    'delivery attempt',
  );
}
