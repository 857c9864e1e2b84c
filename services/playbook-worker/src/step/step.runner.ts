import {
  activityIds,
  announce,
  catalogNote,
  inTransaction,
  pgRunner,
  recordActivity,
  recordedActivities,
} from '@leadhook/activities';
import { checkContactWindow } from '@leadhook/contact-window';
import type { JobPayloads, PlaybookStep } from '@leadhook/contracts';
import {
  applyHeldStatuses,
  ProviderCredentialsError,
  ProviderUnavailableError,
} from '@leadhook/providers';
import { DUE_TOLERANCE_MS, type PlaybookDeps, scheduleStep } from '../playbook.deps.js';
import { parseSteps } from '../steps.js';
import { claimStep, deferStep, readPlay, recordStep } from './step.queries.js';
import { sendStep } from './step.sender.js';

/** A `playbook-step` job's data: step `step` of enrollment `enrollment_id` (the row is the truth). */
export type StepPayload = JobPayloads['playbook-step'];

export type StepResult =
  | {
      kind: 'skipped';
      reason: 'not_found' | 'not_active' | 'other_step' | 'claimed_elsewhere' | 'do_not_contact';
    }
  | { kind: 'not_due'; dueAt: Date }
  | { kind: 'deferred'; until: Date; recorded: boolean }
  /** The carrier answered 429/5xx and sent nothing: the step is tried again at `until`. */
  | { kind: 'retry'; until: Date; attempts: number }
  /** The carrier refused the credentials: nothing ran, the step comes back at `until`. */
  | { kind: 'credentials_refused'; until: Date }
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

/**
 * Runs one step of a play (docs/api.md, "Playbooks"). The enrollment row is the truth: the job
 * only says "look now", so it returns early unless the play is active, at this
 * step, and due. A step never runs twice for one lead: it is claimed
 * (playbook_step_claim: the lead's row lock, then a conditional UPDATE
 * current_step = the job's step) in the transaction that records its activities,
 * so a second worker holding the same job waits for the first and then finds the
 * step taken. The claim also checks the account's do-not-contact list: a
 * suppressed phone gets no step, and the lead ends do_not_contact (docs/api.md,
 * "Do-not-contact").
 *
 * The provider is called inside that transaction, after the claim and before any
 * activity is recorded: a crash after the send rolls the claim back, and the
 * retried step sends with the same idempotency key, which the provider answers
 * with the first message instead of texting the lead again.
 *
 * PostgreSQL work per step: one read, then BEGIN, the claim, the recording
 * (playbook_step_record: the activities through the activity path, the play's
 * end) and COMMIT (step.queries.ts).
 *
 * Statuses the carrier reported before the provider committed the message's
 * carrier id (intake held them, docs/operations.md, "Twilio's callbacks") are
 * applied after the step's own activities, in the same transaction
 * (applyHeldStatuses): with the lead's lock the claim took, as a callback
 * arriving after the commit would have, and once, since they commit (or roll
 * back, to be applied by the step's next try) with the step. Not by the
 * provider when it commits the id: that is its own connection, and recording
 * an activity there would wait for this transaction's lock on the lead.
 */
export async function runStep(deps: PlaybookDeps, payload: StepPayload): Promise<StepResult> {
  const { pool } = deps;
  const now = deps.now();
  const play = await readPlay(pool, payload.enrollment_id, now);
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
  const end = nextAt
    ? null
    : {
        steps: steps.length,
        completed_note: catalogNote('event', 'completed'),
        unreachable_note: catalogNote('outcome', 'unreachable'),
      };

  // Not claimed (another worker ran the step): the transaction changed nothing.
  // A provider error rolls the claim back: the step is not taken (tryLater).
  const outcome = await inTransaction(pool, async (client) => {
    const claimed = await claimStep(client, {
      enrollmentId: payload.enrollment_id,
      step: payload.step,
      nextAt,
      dueBy: new Date(now.getTime() + DUE_TOLERANCE_MS),
    });
    if (!claimed) return null;
    if (claimed.r_do_not_contact) {
      // The phone was suppressed after enrollment: nothing is sent, and the
      // outcome (which stops the play) goes through the activity path.
      const recorded = await recordActivity(pgRunner(client), {
        leadId: play.lead_id,
        type: 'outcome',
        label: 'do_not_contact',
        enrollmentId: payload.enrollment_id,
        data: { step: payload.step },
      });
      return {
        kind: 'do_not_contact' as const,
        activities: recorded.kind === 'recorded' ? recorded.activities : [],
      };
    }
    const sent = step
      ? await sendStep(deps, {
          step,
          index: payload.step,
          play,
          enrollmentId: payload.enrollment_id,
          smsSentBefore: claimed.r_sms_sent,
        })
      : { status: 'none', activities: [], heldFor: null };
    const rows = await recordStep(client, {
      enrollmentId: payload.enrollment_id,
      leadId: play.lead_id,
      activities: sent.activities,
      end,
      // Each step activity may bring a `stopped` (an outcome such as
      // undeliverable), then `completed` and `unreachable`.
      ids: activityIds(2 * sent.activities.length + 2),
    });
    const held = sent.heldFor === null ? [] : await applyHeldStatuses(client, sent.heldFor);
    return { kind: 'ran' as const, status: sent.status, rows, held };
  }).catch((err: unknown) => tryLater(deps, err, now));

  if (outcome && (outcome.kind === 'retry' || outcome.kind === 'credentials_refused')) {
    return outcome;
  }
  if (!outcome) return { kind: 'skipped', reason: 'claimed_elsewhere' };
  if (outcome.kind === 'do_not_contact') {
    announce(deps.queues, deps.logger, outcome.activities);
    return { kind: 'skipped', reason: 'do_not_contact' };
  }
  announce(deps.queues, deps.logger, [
    ...recordedActivities(play.lead_id, outcome.rows),
    ...outcome.held,
  ]);
  const status = outcome.rows.find((row) => row.r_id === null)?.r_status;
  // A held status that is an outcome (undeliverable, opted_out) stopped the play.
  const stopped = outcome.held.some((activity) => activity.type === 'outcome');
  let next: Extract<StepResult, { kind: 'ran' }>['next'];
  if (status === 'active' && nextAt && !stopped) {
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

/**
 * A provider error, after the step's transaction rolled its claim back: a
 * carrier that sent nothing for now (429/5xx, ProviderUnavailableError) gets
 * the step again after PROVIDER_RETRY_SCHEDULE's delay for this try (or the
 * carrier's Retry-After, if longer); refused credentials put it off by the
 * first delay (the worker stops taking steps, step.job.ts, and a worker
 * restarted with good credentials takes it). Anything else is the job's failure.
 */
function tryLater(
  deps: PlaybookDeps,
  err: unknown,
  now: Date,
): Extract<StepResult, { kind: 'retry' | 'credentials_refused' }> {
  const schedule = deps.providerRetryScheduleMs;
  if (err instanceof ProviderCredentialsError) {
    // Back soon after a restart with good credentials; this worker takes no more.
    const delayMs = schedule[0] ?? DEFAULT_RETRY_MS;
    return { kind: 'credentials_refused', until: new Date(now.getTime() + delayMs) };
  }
  if (!(err instanceof ProviderUnavailableError)) throw err;
  const index = Math.min(Math.max(err.attempts, 1), schedule.length) - 1;
  const delayMs = Math.max(schedule[index] ?? DEFAULT_RETRY_MS, err.retryAfterMs ?? 0);
  return { kind: 'retry', until: new Date(now.getTime() + delayMs), attempts: err.attempts };
}

/**
 * The wait after a provider error when PROVIDER_RETRY_SCHEDULE is `none` (the
 * provider then gives up at once, except on a send whose answer was lost: that
 * one is looked up on the next try).
 */
const DEFAULT_RETRY_MS = 30_000;

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
  const rows = await deferStep(deps.pool, {
    enrollmentId: payload.enrollment_id,
    step: payload.step,
    until,
    note: catalogNote('event', 'contact_deferred'),
    data: { step: payload.step, until: until.toISOString(), reason },
    // An event that is not a reply: the activity path writes it alone.
    ids: activityIds(1),
  });
  const activities = recordedActivities(leadId, rows);
  announce(deps.queues, deps.logger, activities);
  return { kind: 'deferred', until, recorded: activities.length > 0 };
}

function stringField(fields: unknown, name: string): string | null {
  if (typeof fields !== 'object' || fields === null) return null;
  const value: unknown = Reflect.get(fields, name);
  return typeof value === 'string' ? value : null;
}
