import {
  announce,
  type NewActivity,
  type RecordedActivity,
  recordActivityInTx,
  type Tx,
} from '@leadhook/activities';
import { checkContactWindow } from '@leadhook/contact-window';
import type { PlaybookStep } from '@leadhook/contracts';
import { statusActivity } from '@leadhook/providers';
import {
  DUE_TOLERANCE_MS,
  type PlaybookDeps,
  STEP_TX_OPTIONS,
  scheduleStep,
} from './playbook.deps.js';
import { parseSteps } from './steps.js';
import { renderTemplate } from './template.js';

export interface StepPayload {
  enrollment_id: string;
  step: number;
}

export type StepResult =
  | { kind: 'skipped'; reason: 'not_found' | 'not_active' | 'other_step' | 'claimed_elsewhere' }
  | { kind: 'not_due'; dueAt: Date }
  | { kind: 'deferred'; until: Date; recorded: boolean }
  | {
      kind: 'ran';
      type: PlaybookStep['type'] | 'none';
      /** The provider's answer; 'none' when the playbook no longer has this step. */
      status: string;
      /** Seconds between the step's due time and its run. */
      lagSeconds: number;
      leadId: string;
      /** The play after this step: the next step's index, or its end. */
      next: { step: number; at: Date } | 'completed' | 'stopped';
    };

const DAY_MS = 86_400_000;

interface LockedLead {
  id: string;
  phone: string;
  fields: unknown;
  external_id: string | null;
}

/**
 * Runs one step of a play (CONTRACT §4). The enrollment row is the truth: the job
 * only says "look now", so it returns early unless the play is active, at this
 * step, and due. A step never runs twice for one lead: it is claimed by a
 * conditional UPDATE (current_step = the job's step) in the transaction that
 * records its activities, after the lead's row lock, so a second worker holding
 * the same job waits for the first and then finds the step taken.
 *
 * The provider is called inside that transaction, before any activity is
 * recorded: a crash after the send rolls the claim back, and the retried step
 * sends with the same idempotency key, which the provider answers with the first
 * message instead of texting the lead again.
 */
export async function runStep(deps: PlaybookDeps, payload: StepPayload): Promise<StepResult> {
  const { prisma } = deps;
  const now = deps.now();
  const enrollment = await prisma.enrollment.findUnique({
    where: { id: payload.enrollment_id },
    select: {
      id: true,
      leadId: true,
      status: true,
      currentStep: true,
      nextRunAt: true,
      playbook: { select: { steps: true } },
      lead: { select: { phone: true, fields: true } },
    },
  });
  if (!enrollment) return { kind: 'skipped', reason: 'not_found' };
  if (enrollment.status !== 'active') return { kind: 'skipped', reason: 'not_active' };
  if (enrollment.currentStep !== payload.step || enrollment.nextRunAt === null) {
    return { kind: 'skipped', reason: 'other_step' };
  }
  const dueAt = enrollment.nextRunAt;
  if (dueAt.getTime() > now.getTime() + DUE_TOLERANCE_MS) return { kind: 'not_due', dueAt };

  const steps = parseSteps(enrollment.playbook.steps);
  const step = steps[payload.step];
  if (step) {
    const window = checkContactWindow({
      phone: enrollment.lead.phone,
      state: stringField(enrollment.lead.fields, 'current_residence_state'),
      zip: stringField(enrollment.lead.fields, 'current_residence_zip'),
      contactHours: deps.contactHours,
      now,
      recentAttempts: await recentAttempts(deps, enrollment.leadId, now),
    });
    if (!window.allowed) return defer(deps, enrollment.id, enrollment.leadId, payload.step, window);
  }

  const nextDef = steps[payload.step + 1];
  const nextAt = nextDef ? new Date(now.getTime() + nextDef.delay_seconds * 1000) : null;

  const outcome = await prisma.$transaction(async (tx) => {
    const [lead] = await tx.$queryRaw<LockedLead[]>`
      SELECT id, phone, fields, external_id FROM leads
       WHERE id = ${enrollment.leadId} FOR NO KEY UPDATE`;
    // FOR NO KEY UPDATE, not FOR UPDATE: it serialises with the activity path
    // (which takes FOR UPDATE, e.g. a STOP reply) yet lets the provider's insert
    // into provider_messages (another connection) take its foreign-key lock.
    if (!lead) return null;
    const claimed = await tx.$executeRaw`
      UPDATE enrollments
         SET current_step = current_step + 1, next_run_at = ${nextAt}, updated_at = now()
       WHERE id = ${enrollment.id} AND current_step = ${payload.step} AND status = 'active'
         AND next_run_at <= ${new Date(now.getTime() + DUE_TOLERANCE_MS)}`;
    if (claimed !== 1) return null;

    const activities: RecordedActivity[] = [];
    const record = async (input: Omit<NewActivity, 'leadId' | 'enrollmentId'>) => {
      const result = await recordActivityInTx(tx, {
        ...input,
        leadId: lead.id,
        enrollmentId: enrollment.id,
      });
      if (result.kind === 'recorded') activities.push(...result.activities);
    };
    const status = step
      ? await sendStep(deps, tx, {
          step,
          index: payload.step,
          lead,
          enrollmentId: enrollment.id,
          record,
        })
      : 'none';

    const after = await tx.enrollment.findUniqueOrThrow({
      where: { id: enrollment.id },
      select: { status: true },
    });
    let next: Extract<StepResult, { kind: 'ran' }>['next'];
    if (after.status !== 'active') {
      next = 'stopped';
    } else if (nextAt) {
      next = { step: payload.step + 1, at: nextAt };
    } else {
      // The last step ran. Status first: the activity path adds `stopped` before an
      // outcome only for an active play, and this play ended, it was not stopped.
      await tx.enrollment.update({
        where: { id: enrollment.id },
        data: { status: 'completed', nextRunAt: null },
      });
      await record({ type: 'event', label: 'completed', data: { steps: steps.length } });
      if (!(await leadResponded(tx, lead.id))) {
        await record({ type: 'outcome', label: 'unreachable' });
      }
      next = 'completed';
    }
    return { status, next, activities };
  }, STEP_TX_OPTIONS);

  if (!outcome) return { kind: 'skipped', reason: 'claimed_elsewhere' };
  announce(deps.queues, deps.logger, outcome.activities);
  if (typeof outcome.next === 'object') {
    scheduleStep(deps, enrollment.id, outcome.next.step, outcome.next.at);
  }
  return {
    kind: 'ran',
    type: step?.type ?? 'none',
    status: outcome.status,
    lagSeconds: Math.max(0, (now.getTime() - dueAt.getTime()) / 1000),
    leadId: enrollment.leadId,
    next: outcome.next,
  };
}

interface SendContext {
  step: PlaybookStep;
  index: number;
  lead: LockedLead;
  enrollmentId: string;
  record: (input: Omit<NewActivity, 'leadId' | 'enrollmentId'>) => Promise<void>;
}

/** Sends the step through the provider and records what it became. */
async function sendStep(deps: PlaybookDeps, tx: Tx, ctx: SendContext): Promise<string> {
  const { step, index, lead, enrollmentId, record } = ctx;
  const template = { fields: lead.fields, externalId: lead.external_id };
  const request = {
    to: lead.phone,
    idempotencyKey: `step-${enrollmentId}-${index}`,
    ref: { leadId: lead.id, enrollmentId, step: index },
  };
  if (step.type === 'sms') {
    const sent = await deps.provider.sendSms({
      ...request,
      body: renderTemplate(step.template ?? '', template),
    });
    const data = { step: index, provider_message_id: sent.providerMessageId };
    if (sent.status !== 'undeliverable') {
      const earlier = await tx.activity.count({
        where: { enrollmentId, activityLabel: 'first_message_sent' },
      });
      await record({
        type: 'event',
        label: earlier === 0 ? 'first_message_sent' : 'message_sent',
        data,
      });
    }
    const then = statusActivity({ channel: 'sms', status: sent.status });
    if (then)
      await record({ type: then.type, label: then.label, data: { ...data, channel: 'sms' } });
    return sent.status;
  }
  const placed = await deps.provider.placeCall({
    ...request,
    script: step.template === undefined ? null : renderTemplate(step.template, template),
  });
  const data = { step: index, provider_message_id: placed.providerMessageId };
  if (placed.status !== 'undeliverable') {
    await record({
      type: 'event',
      label: 'call_attempted',
      data: { ...data, status: placed.status },
    });
  }
  const then = statusActivity({ channel: 'call', status: placed.status });
  if (then)
    await record({ type: then.type, label: then.label, data: { ...data, channel: 'call' } });
  return placed.status;
}

/**
 * Outside the contact window: the step waits for it to open. next_run_at moves to
 * `until` and contact_deferred is recorded only when it actually moves, so a job
 * delivered twice or a reconciler round records one deferral, not one per look.
 */
async function defer(
  deps: PlaybookDeps,
  enrollmentId: string,
  leadId: string,
  step: number,
  window: { until: Date; reason: string },
): Promise<StepResult> {
  const { until, reason } = window;
  const activities = await deps.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM leads WHERE id = ${leadId} FOR NO KEY UPDATE`;
    const moved = await tx.$executeRaw`
      UPDATE enrollments SET next_run_at = ${until}, updated_at = now()
       WHERE id = ${enrollmentId} AND current_step = ${step} AND status = 'active'
         AND next_run_at IS DISTINCT FROM ${until}`;
    if (moved !== 1) return null;
    const result = await recordActivityInTx(tx, {
      leadId,
      type: 'event',
      label: 'contact_deferred',
      enrollmentId,
      data: { step, until: until.toISOString(), reason },
    });
    return result.kind === 'recorded' ? result.activities : [];
  }, STEP_TX_OPTIONS);
  if (activities) announce(deps.queues, deps.logger, activities);
  return { kind: 'deferred', until, recorded: activities !== null };
}

/** Instants of the lead's SMS and calls in the 24 h before `now` (per-day caps). */
async function recentAttempts(deps: PlaybookDeps, leadId: string, now: Date): Promise<Date[]> {
  const rows = await deps.prisma.providerMessage.findMany({
    where: { leadId, createdAt: { gt: new Date(now.getTime() - DAY_MS), lte: now } },
    select: { createdAt: true },
  });
  return rows.map((r) => r.createdAt);
}

/**
 * "No reply" (CONTRACT §4) means the lead never answered: no message received and
 * no call answered. A lead who did is not `unreachable`; its play just completes.
 */
async function leadResponded(tx: Tx, leadId: string): Promise<boolean> {
  const count = await tx.activity.count({
    where: { leadId, activityLabel: { in: ['message_received', 'call_answered'] } },
  });
  return count > 0;
}

function stringField(fields: unknown, name: string): string | null {
  if (typeof fields !== 'object' || fields === null) return null;
  const value: unknown = Reflect.get(fields, name);
  return typeof value === 'string' ? value : null;
}
