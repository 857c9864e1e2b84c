import type { WebhookPayload } from '@leadhook/contracts';
import type { Prisma, PrismaClient } from '@leadhook/db';

/** Anything that reads activities: the client or a transaction. */
export type PayloadReader =
  | Pick<PrismaClient, 'activity'>
  | Pick<Prisma.TransactionClient, 'activity'>;

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
 * The webhook body of an activity (CONTRACT §3; schema: webhookPayloadSchema in
 * packages/contracts), or null when the activity does not exist. Built from the
 * rows at send time: names are the current ones (as the management API shows
 * them), except the originator's, which is the source's name at acceptance.
 */
export async function buildPayload(
  prisma: PayloadReader,
  activityId: string,
): Promise<BuiltPayload | null> {
  const activity = await prisma.activity.findUnique({
    where: { id: activityId },
    include: {
      lead: {
        include: {
          source: { select: { id: true, name: true } },
          playbook: { select: { id: true, name: true } },
          enrollment: { select: { id: true } },
        },
      },
    },
  });
  if (!activity) return null;
  const { lead } = activity;
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
    marketing_source: { id: lead.source.id, name: lead.source.name },
    playbook: { id: lead.playbook.id, name: lead.playbook.name },
    data: jsonObject(activity.data),
    activity_play_id: activity.enrollmentId ?? lead.enrollment?.id ?? null,
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
