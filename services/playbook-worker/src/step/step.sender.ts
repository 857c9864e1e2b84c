import { catalogNote } from '@leadhook/activities';
import type { PlaybookStep } from '@leadhook/contracts';
import { type SendFailure, statusActivity, withOptOutInstruction } from '@leadhook/providers';
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

export interface SentStep {
  status: string;
  activities: StepActivity[];
  /**
   * The provider message whose carrier statuses intake held until the send
   * committed its carrier id (the provider's heldStatuses): the step applies
   * them after its own activities (step.runner.ts).
   */
  heldFor: string | null;
}

/**
 * Sends the step through the provider, with an idempotency key of the step (a
 * retried step gets the first message back, the lead is not texted twice);
 * answers what it became and the activities to record. A play's first SMS
 * carries the opt-out instruction (docs/api.md, "Playbooks"). A send that did
 * not happen (the provider's `failure`) records only message_failed, or a
 * failed call_attempted, with its reason.
 */
export async function sendStep(
  deps: Pick<PlaybookDeps, 'provider'>,
  ctx: SendContext,
): Promise<SentStep> {
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
      body: withOptOutInstruction(
        renderTemplate(step.template ?? '', template),
        !ctx.smsSentBefore,
      ),
    });
    const data = { step: index, provider_message_id: sent.providerMessageId };
    const heldFor = sent.heldStatuses ? sent.providerMessageId : null;
    if (sent.failure) {
      add('event', 'message_failed', { ...data, channel: 'sms', ...failureData(sent.failure) });
      return { status: sent.status, activities, heldFor };
    }
    if (sent.status !== 'undeliverable' && sent.status !== 'opted_out') {
      add('event', ctx.smsSentBefore ? 'message_sent' : 'first_message_sent', data);
    }
    const then = statusActivity({ channel: 'sms', status: sent.status });
    if (then) add(then.type, then.label, { ...data, channel: 'sms' });
    return { status: sent.status, activities, heldFor };
  }
  const placed = await deps.provider.placeCall({
    ...request,
    script: step.template === undefined ? null : renderTemplate(step.template, template),
  });
  const data = { step: index, provider_message_id: placed.providerMessageId };
  const heldFor = placed.heldStatuses ? placed.providerMessageId : null;
  if (placed.failure) {
    add('event', 'call_attempted', { ...data, status: 'failed', ...failureData(placed.failure) });
    return { status: placed.status, activities, heldFor };
  }
  if (placed.status !== 'undeliverable') {
    add('event', 'call_attempted', { ...data, status: placed.status });
  }
  const then = statusActivity({ channel: 'call', status: placed.status });
  if (then) add(then.type, then.label, { ...data, channel: 'call' });
  return { status: placed.status, activities, heldFor };
}

/** An unsent step's data: why, and the carrier's error code when it gave one. */
function failureData(failure: SendFailure): Record<string, unknown> {
  return {
    reason: failure.reason,
    ...(failure.errorCode === null ? {} : { error_code: failure.errorCode }),
  };
}
