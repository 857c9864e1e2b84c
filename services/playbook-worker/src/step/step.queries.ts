import type { RecordedRow } from '@leadhook/activities';
import type { Pool, PoolClient } from '@leadhook/db';

/**
 * The step job's statements: one read, then the SQL functions of a step's
 * transitions (prisma/functions/playbook/), whose headers say what each
 * guarantees. Plain pg: Prisma's statements per step were most of the worker's
 * CPU (bench/RESULTS.md, "Figures that code comments quoted").
 */

const DAY_MS = 86_400_000;

/** The play, its playbook, its lead and the lead's recent attempts: one read. */
export interface PlayRow {
  lead_id: string;
  status: string;
  current_step: number;
  next_run_at: Date | null;
  steps: unknown;
  phone: string;
  fields: unknown;
  external_id: string | null;
  /** The lead's provider messages of the last day (the contact window's attempt cap). */
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

/** The play of an enrollment as of `now`; undefined when there is none. */
export async function readPlay(
  pool: Pool,
  enrollmentId: string,
  now: Date,
): Promise<PlayRow | undefined> {
  const { rows } = await pool.query<PlayRow>(READ_PLAY, [
    enrollmentId,
    new Date(now.getTime() - DAY_MS),
    now,
  ]);
  return rows[0];
}

/** A claimed step; r_do_not_contact: the phone is suppressed, the step was not taken. */
export interface ClaimRow {
  r_lead_id: string;
  r_sms_sent: boolean;
  r_do_not_contact: boolean;
}

/**
 * playbook_step_claim, in the step's transaction: the lead's row lock, the
 * do-not-contact check, then the step taken (current_step moves on).
 * Undefined: another worker took it.
 */
export async function claimStep(
  client: PoolClient,
  args: { enrollmentId: string; step: number; nextAt: Date | null; dueBy: Date },
): Promise<ClaimRow | undefined> {
  const { rows } = await client.query<ClaimRow>(
    'SELECT * FROM playbook_step_claim($1, $2, $3, $4)',
    [args.enrollmentId, args.step, args.nextAt, args.dueBy],
  );
  return rows[0];
}

/** An activity a step asks the activity path to record. */
export interface StepActivity {
  type: 'event' | 'outcome';
  label: string;
  note: string;
  data: Record<string, unknown>;
}

/** A row of playbook_step_record: an activity recorded, or (r_id NULL) the play's status. */
export interface StepRecordRow extends RecordedRow {
  r_status: string | null;
}

/** The play's end, when the step was its last: what playbook_step_record writes then. */
export interface PlayEnd {
  steps: number;
  completed_note: string;
  unreachable_note: string;
}

/**
 * playbook_step_record, in the step's transaction: the step's activities through
 * the activity path, and the play's end when `end` is given.
 */
export async function recordStep(
  client: PoolClient,
  args: {
    enrollmentId: string;
    leadId: string;
    activities: readonly StepActivity[];
    end: PlayEnd | null;
    ids: string[];
  },
): Promise<StepRecordRow[]> {
  const { rows } = await client.query<StepRecordRow>(
    'SELECT * FROM playbook_step_record($1, $2, $3::jsonb, $4::jsonb, $5::text[])',
    [
      args.enrollmentId,
      args.leadId,
      JSON.stringify(args.activities),
      args.end === null ? null : JSON.stringify(args.end),
      args.ids,
    ],
  );
  return rows;
}

/**
 * playbook_step_defer: next_run_at moves to `until`, and contact_deferred is
 * recorded only when it actually moves (its rows then).
 */
export async function deferStep(
  pool: Pool,
  args: {
    enrollmentId: string;
    step: number;
    until: Date;
    note: string;
    data: Record<string, unknown>;
    ids: string[];
  },
): Promise<RecordedRow[]> {
  const { rows } = await pool.query<RecordedRow>(
    'SELECT * FROM playbook_step_defer($1, $2, $3, $4, $5::jsonb, $6::text[])',
    [args.enrollmentId, args.step, args.until, args.note, JSON.stringify(args.data), args.ids],
  );
  return rows;
}
