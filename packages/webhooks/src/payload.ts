import type { WebhookPayload } from '@leadhook/contracts';
import type { Prisma } from '@leadhook/db';

export interface BuiltPayload {
  /** The exact bytes to sign and send. */
  body: string;
  payload: WebhookPayload;
}

type Json = Prisma.JsonValue;

function jsonObject(value: Json): Prisma.JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

/**
 * What a webhook body is made of: the activity, its lead, and the lead's source
 * and playbook (current names). The webhook
 * worker reads them with the claim of a delivery, in one SQL round trip.
 */
export interface PayloadRows {
  activity: {
    id: string;
    activityType: string;
    activityLabel: string;
    occurredAt: Date;
    note: string;
    data: Json;
    enrollmentId: string | null;
  };
  lead: {
    id: string;
    externalId: string | null;
    sourceName: string;
    firstName: string;
    lastName: string;
    email: string;
    optedOut: boolean;
    createdAt: Date;
    extra: Json;
    /** The lead's play, if it has one. */
    enrollmentId: string | null;
  };
  source: { id: string; name: string };
  playbook: { id: string; name: string };
}

/**
 * The webhook body (docs/webhooks.md, "Payload"; schema: webhookPayloadSchema in
 * packages/contracts) from its rows: names are the current ones (as the
 * management API shows them), except the originator's, which is the source's
 * name at acceptance.
 */
export function payloadOf(rows: PayloadRows): BuiltPayload {
  const { activity, lead } = rows;
  const occurredAt = activity.occurredAt.toISOString();
  const payload: WebhookPayload = {
    id: activity.id,
    activity_type: activity.activityType === 'outcome' ? 'outcome' : 'event',
    activity_label: activity.activityLabel,
    occurred_at: occurredAt,
    lead_originators: [
      { origin: 'leadhook', key: lead.id },
      ...(lead.externalId ? [{ origin: lead.sourceName, key: lead.externalId }] : []),
    ],
    lead_id: lead.id,
    marketing_source: { id: rows.source.id, name: rows.source.name },
    playbook: { id: rows.playbook.id, name: rows.playbook.name },
    data: jsonObject(activity.data),
    activity_play_id: activity.enrollmentId ?? lead.enrollmentId,
    activity_note: activity.note,
    activity_created_at: occurredAt,
    lead_first_name: lead.firstName,
    lead_last_name: lead.lastName,
    lead_email: lead.email,
    lead_opted_out: lead.optedOut,
    lead_created_at: lead.createdAt.toISOString(),
    lead_additional_info: jsonObject(lead.extra),
  };
  return { body: JSON.stringify(payload), payload };
}
