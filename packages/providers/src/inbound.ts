import {
  type ActivityRecorder,
  announce,
  type RecordedActivity,
  recordActivityInTx,
} from '@leadhook/activities';
import { toE164 } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';
import { type CallStatus, isCallStatus, isSmsStatus, type SmsStatus } from './provider.js';
import { statusActivity } from './provider-activities.js';

/**
 * What a provider's webhooks call: an inbound SMS and a status callback. Both go
 * through the activity path (packages/activities), the same one as the worker's
 * own activities and POST /leads/{id}/activities: a reply of STOP there becomes
 * message_received, stopped and the outcome opted_out in one transaction.
 */

export type InboundMessage = { body: string } & ({ leadId: string } | { phone: string });

export type InboundResult =
  | { kind: 'recorded'; leadId: string; activities: RecordedActivity[] }
  | { kind: 'lead_not_found' };

export interface InboundDeps {
  prisma: PrismaClient;
  recorder: ActivityRecorder;
}

/**
 * Records a reply as message_received. By phone, the lead is the newest one with
 * that number and an active play, else the newest one with that number.
 */
export async function receiveInbound(
  deps: InboundDeps,
  message: InboundMessage,
): Promise<InboundResult> {
  const leadId =
    'leadId' in message ? message.leadId : await leadByPhone(deps.prisma, message.phone);
  if (leadId === null) return { kind: 'lead_not_found' };
  const result = await deps.recorder.record({
    leadId,
    type: 'event',
    label: 'message_received',
    data: { body: message.body },
  });
  if (result.kind !== 'recorded') return { kind: 'lead_not_found' };
  return { kind: 'recorded', leadId, activities: result.activities };
}

async function leadByPhone(prisma: PrismaClient, phone: string): Promise<string | null> {
  const e164 = toE164(phone) ?? phone;
  const select = { id: true } as const;
  const orderBy = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
  const active = await prisma.lead.findFirst({
    where: { phone: e164, enrollment: { status: 'active' } },
    orderBy,
    select,
  });
  if (active) return active.id;
  const any = await prisma.lead.findFirst({ where: { phone: e164 }, orderBy, select });
  return any?.id ?? null;
}

export interface StatusCallback {
  providerMessageId: string;
  status: string;
}

export type StatusCallbackResult =
  | { kind: 'recorded'; activities: RecordedActivity[] }
  | { kind: 'unchanged' }
  | { kind: 'message_not_found' }
  | { kind: 'invalid_status' };

export interface StatusCallbackDeps {
  prisma: PrismaClient;
  queues: QueueSet;
  logger: Logger;
}

interface LockedMessage {
  id: string;
  lead_id: string;
  enrollment_id: string | null;
  step: number | null;
  channel: string;
  status: string;
}

/**
 * A carrier's late answer about a message or call: updates its record and
 * records the activity it means (message_delivered, message_failed,
 * call_answered, voicemail_left, or the outcome undeliverable). A callback
 * repeating the status already recorded changes nothing, so carriers' retries
 * are harmless.
 */
export async function receiveStatusCallback(
  deps: StatusCallbackDeps,
  callback: StatusCallback,
): Promise<StatusCallbackResult> {
  const result = await deps.prisma.$transaction(async (tx): Promise<StatusCallbackResult> => {
    const [message] = await tx.$queryRaw<LockedMessage[]>`
        SELECT id, lead_id, enrollment_id, step, channel, status
          FROM provider_messages WHERE id = ${callback.providerMessageId} FOR UPDATE`;
    if (!message) return { kind: 'message_not_found' };
    let parsed: { channel: 'sms'; status: SmsStatus } | { channel: 'call'; status: CallStatus };
    if (message.channel === 'sms' && isSmsStatus(callback.status)) {
      parsed = { channel: 'sms', status: callback.status };
    } else if (message.channel === 'call' && isCallStatus(callback.status)) {
      parsed = { channel: 'call', status: callback.status };
    } else {
      return { kind: 'invalid_status' };
    }
    if (message.status === parsed.status) return { kind: 'unchanged' };
    await tx.providerMessage.update({
      where: { id: message.id },
      data: { status: parsed.status },
    });
    const activity = statusActivity(parsed);
    if (!activity) return { kind: 'recorded', activities: [] };
    const recorded = await recordActivityInTx(tx, {
      leadId: message.lead_id,
      type: activity.type,
      label: activity.label,
      enrollmentId: message.enrollment_id,
      data: { step: message.step, provider_message_id: message.id, status: parsed.status },
    });
    return {
      kind: 'recorded',
      activities: recorded.kind === 'recorded' ? recorded.activities : [],
    };
  });
  if (result.kind === 'recorded') announce(deps.queues, deps.logger, result.activities);
  return result;
}
