import { catalogNote } from '@leadhook/activities';
import type { PlaybookStep } from '@leadhook/contracts';
import { statusActivity } from '@leadhook/providers';
import type { PlaybookDeps } from '../playbook.deps.js';
import { renderTemplate } from '../template.js';
import type { PlayRow, StepActivity } from './step.queries.js';

export interface SendContext {
  step: PlaybookStep;
  index: number;
  play: PlayRow;
  enrollmentId: string;
  /** The play already recorded first_message_sent. */
  smsSentBefore: boolean;
}

/**
 * Sends the step through the provider, with an idempotency key of the step (a
 * retried step gets the first message back, the lead is not texted twice);
 * answers what it became and the activities to record.
 */
export async function sendStep(
  deps: Pick<PlaybookDeps, 'provider'>,
  ctx: SendContext,
): Promise<{ status: string; activities: StepActivity[] }> {
  const { step, index, play, enrollmentId } = ctx;
  const template = { fields: play.fields, externalId: play.external_id };
  const request = {
    to: play.phone,
    idempotencyKey: `step-${enrollmentId}-${index}`,
    ref: { leadId: play.lead_id, enrollmentId, step: index },
  };
  const activities: StepActivity[] = [];
  const add = (type: 'event' | 'outcome', label: string, data: Record<string, unknown>) => {
    activities.push({ type, label, note: catalogNote(type, label), data });
  };
  if (step.type === 'sms') {
    const sent = await deps.provider.sendSms({
      ...request,
      body: renderTemplate(step.template ?? '', template),
    });
    const data = { step: index, provider_message_id: sent.providerMessageId };
    if (sent.status !== 'undeliverable' && sent.status !== 'opted_out') {
      add('event', ctx.smsSentBefore ? 'message_sent' : 'first_message_sent', data);
    }
    const then = statusActivity({ channel: 'sms', status: sent.status });
    if (then) add(then.type, then.label, { ...data, channel: 'sms' });
    return { status: sent.status, activities };
  }
  const placed = await deps.provider.placeCall({
    ...request,
    script: step.template === undefined ? null : renderTemplate(step.template, template),
  });
  const data = { step: index, provider_message_id: placed.providerMessageId };
  if (placed.status !== 'undeliverable') {
    add('event', 'call_attempted', { ...data, status: placed.status });
  }
  const then = statusActivity({ channel: 'call', status: placed.status });
  if (then) add(then.type, then.label, { ...data, channel: 'call' });
  return { status: placed.status, activities };
}
