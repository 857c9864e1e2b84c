import {
  activityIds,
  announce,
  catalogNote,
  inTransaction,
  type RecordedRow,
  recordedActivities,
} from '@leadhook/activities';
import { checkContactWindow } from '@leadhook/contact-window';
import type { PlaybookStep } from '@leadhook/contracts';
import { statusActivity } from '@leadhook/providers';
import { DUE_TOLERANCE_MS, type PlaybookDeps, scheduleStep } from './playbook.deps.js';
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

/** The play, its playbook, its lead and the lead's recent attempts: one read. */
interface PlayRow {
  lead_id: string;
  status: string;
  current_step: number;
  next_run_at: Date | null;
  steps: unknown;
  phone: string;
  fields: unknown;
  external_id: string | null;
  recent: Date[];
}

const READ_PLAY = `
  SELECT e.lead_id, e.status, e.current_step, e.next_run_at, p.steps, l.phone, l.fields, l.external_id,
         ARRAY(SELECT m.created_at FROM provider_messages m
                WHERE m.lead_id = e.lead_id AND m.created_at > $2 AND m.created_at <= $3) AS recent
    FROM enrollments e
    JOIN playbooks p ON p.id = e.playbook_id
    JOIN leads l ON l.id = e.lead_id
   WHERE e.id = $1`;

/** An activity a step asks the activity path to record. */
interface StepActivity {
  type: 'event' | 'outcome';
  label: string;
  note: string;
  data: Record<string, unknown>;
}

interface StepRecordRow extends RecordedRow {
  r_status: string | null;
}

/**
 * Runs one step of a play (docs/api.md, "Playbooks"). The enrollment row is the truth: the job
 * only says "look now", so it returns early unless the play is active, at this
 * step, and due. A step never runs twice for one lead: it is claimed
 * (playbook_step_claim: the lead's row lock, then a conditional UPDATE
 * current_step = the job's step) in the transaction that records its activities,
 * so a second worker holding the same job waits for the first and then finds the
 * step taken.
 *
 * The provider is called inside that transaction, after the claim and before any
 * activity is recorded: a crash after the send rolls the claim back, and the
 * retried step sends with the same idempotency key, which the provider answers
 * with the first message instead of texting the lead again.
 *
 * PostgreSQL work per step: one read, then BEGIN, the claim, the recording
 * (playbook_step_record: the activities through the activity path, the play's
 * end) and COMMIT, on a plain pg connection (bench/playbook: Prisma's ~25
 * statements per step were most of the worker's CPU).
 */
export async function runStep(deps: PlaybookDeps, payload: StepPayload): Promise<StepResult> {
  const { pool } = deps;
  const now = deps.now();
  const { rows } = await pool.query<PlayRow>(READ_PLAY, [
    payload.enrollment_id,
    new Date(now.getTime() - DAY_MS),
    now,
  ]);
  const play = rows[0];
  if (!play) return { kind: 'skipped', reason: 'not_found' };
  if (play.status !== 'active') return { kind: 'skipped', reason: 'not_active' };
  if (play.current_step !== payload.step || play.next_run_at === null) {
    return { kind: 'skipped', reason: 'other_step' };
  }
  const dueAt = play.next_run_at;
  if (dueAt.getTime() > now.getTime() + DUE_TOLERANCE_MS) return { kind: 'not_due', dueAt };

  const steps = parseSteps(play.steps);
  const step = steps[payload.step];
  if (step) {
    const window = checkContactWindow({
      phone: play.phone,
      state: stringField(play.fields, 'current_residence_state'),
      zip: stringField(play.fields, 'current_residence_zip'),
      contactHours: deps.contactHours,
      now,
      recentAttempts: play.recent,
    });
    if (!window.allowed) return defer(deps, payload, play.lead_id, window);
  }

  const nextDef = steps[payload.step + 1];
  const nextAt = nextDef ? new Date(now.getTime() + nextDef.delay_seconds * 1000) : null;
  const last = nextAt
    ? null
    : {
        steps: steps.length,
        completed_note: catalogNote('event', 'completed'),
        unreachable_note: catalogNote('outcome', 'unreachable'),
      };

  // Not claimed (another worker ran the step): the transaction changed nothing.
  const outcome = await inTransaction(pool, async (client) => {
    const claim = await client.query<{ r_lead_id: string; r_sms_sent: boolean }>(
      'SELECT * FROM playbook_step_claim($1, $2, $3, $4)',
      [payload.enrollment_id, payload.step, nextAt, new Date(now.getTime() + DUE_TOLERANCE_MS)],
    );
    const claimed = claim.rows[0];
    if (!claimed) return null;
    const sent = step
      ? await sendStep(deps, {
          step,
          index: payload.step,
          play,
          enrollmentId: payload.enrollment_id,
          smsSentBefore: claimed.r_sms_sent,
        })
      : { status: 'none', activities: [] };
    const recorded = await client.query<StepRecordRow>(
      'SELECT * FROM playbook_step_record($1, $2, $3::jsonb, $4::jsonb, $5::text[])',
      [
        payload.enrollment_id,
        play.lead_id,
        JSON.stringify(sent.activities),
        last === null ? null : JSON.stringify(last),
        // Each step activity may bring a `stopped` (an outcome such as
        // undeliverable), then `completed` and `unreachable`.
        activityIds(2 * sent.activities.length + 2),
      ],
    );
    return { status: sent.status, rows: recorded.rows };
  });

  if (!outcome) return { kind: 'skipped', reason: 'claimed_elsewhere' };
  announce(deps.queues, deps.logger, recordedActivities(play.lead_id, outcome.rows));
  const status = outcome.rows.find((row) => row.r_id === null)?.r_status;
  let next: Extract<StepResult, { kind: 'ran' }>['next'];
  if (status === 'active' && nextAt) {
    next = { step: payload.step + 1, at: nextAt };
    scheduleStep(deps, payload.enrollment_id, next.step, next.at);
  } else {
    next = status === 'completed' ? 'completed' : 'stopped';
  }
  return {
    kind: 'ran',
    type: step?.type ?? 'none',
    status: outcome.status,
    lagSeconds: Math.max(0, (now.getTime() - dueAt.getTime()) / 1000),
    leadId: play.lead_id,
    next,
  };
}

interface SendContext {
  step: PlaybookStep;
  index: number;
  play: PlayRow;
  enrollmentId: string;
  /** The play already recorded first_message_sent. */
  smsSentBefore: boolean;
}

/** Sends the step through the provider; answers what it became and its activities. */
async function sendStep(
  deps: PlaybookDeps,
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
    if (sent.status !== 'undeliverable') {
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

/**
 * Outside the contact window: the step waits for it to open (playbook_step_defer:
 * next_run_at moves to `until`, and contact_deferred is recorded only when it
 * actually moves, so a job delivered twice or a reconciler round records one
 * deferral, not one per look).
 */
async function defer(
  deps: PlaybookDeps,
  payload: StepPayload,
  leadId: string,
  window: { until: Date; reason: string },
): Promise<StepResult> {
  const { until, reason } = window;
  const { rows } = await deps.pool.query<RecordedRow>(
    'SELECT * FROM playbook_step_defer($1, $2, $3, $4, $5::jsonb, $6::text[])',
    [
      payload.enrollment_id,
      payload.step,
      until,
      catalogNote('event', 'contact_deferred'),
      JSON.stringify({ step: payload.step, until: until.toISOString(), reason }),
      // An event that is not a reply: the activity path writes it alone.
      activityIds(1),
    ],
  );
  const activities = recordedActivities(leadId, rows);
  announce(deps.queues, deps.logger, activities);
  return { kind: 'deferred', until, recorded: activities.length > 0 };
}

function stringField(fields: unknown, name: string): string | null {
  if (typeof fields !== 'object' || fields === null) return null;
  const value: unknown = Reflect.get(fields, name);
  return typeof value === 'string' ? value : null;
}
