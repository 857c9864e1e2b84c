import {
  activityIds,
  announce,
  catalogNote,
  type RecordedRow,
  recordedActivities,
} from '@leadhook/activities';
import { newId } from '@leadhook/db';
import type { PlaybookDeps } from './playbook.deps.js';
import { scheduleStep } from './playbook.deps.js';

export type EnrollResult =
  | { kind: 'enrolled'; enrollmentId: string; firstStepAt: Date | null }
  | { kind: 'already_enrolled'; enrollmentId: string }
  /** do_not_contact: the phone is on the account's do-not-contact list; the lead ended so. */
  | { kind: 'not_enrollable'; reason: 'outcome' | 'opted_out' | 'do_not_contact' }
  | { kind: 'lead_not_found' };

interface EnrollRow extends RecordedRow {
  r_kind:
    | 'enrolled'
    | 'already_enrolled'
    | 'not_enrollable_outcome'
    | 'not_enrollable_opted_out'
    | 'do_not_contact'
    | 'lead_not_found';
  r_enrollment_id: string | null;
  r_first_step_at: Date | null;
}

/**
 * Enrolls an accepted lead in its playbook (docs/api.md, "Playbooks"). In ONE transaction (one
 * statement: the SQL function playbook_enroll): the enrollment row, the `started`
 * activity through the activity path, and the closing of the lead's open
 * `enrollment` outbox rows (the consumer closes the row once the effect exists,
 * docs/operations.md, "Architecture"). Safe to run twice: a lead already enrolled (Enrollment.lead_id is
 * unique, and the lead's row lock serialises two workers) only gets its rows
 * closed. A lead with an outcome or opted out is not enrolled; nor is one whose
 * phone is on its account's do-not-contact list, which ends with the outcome
 * do_not_contact (docs/api.md, "Do-not-contact").
 */
export async function enrollLead(deps: PlaybookDeps, leadId: string): Promise<EnrollResult> {
  const { rows } = await deps.pool.query<EnrollRow>(
    'SELECT * FROM playbook_enroll($1, $2, $3, $4, $5::text[])',
    [
      leadId,
      newId('enrollment'),
      deps.now(),
      catalogNote('event', 'started'),
      // `started`, or do_not_contact (no play yet, so no `stopped`): one activity.
      activityIds(1),
    ],
  );
  const first = rows[0];
  if (!first) throw new Error('playbook_enroll returned no row');
  switch (first.r_kind) {
    case 'lead_not_found':
      return { kind: 'lead_not_found' };
    case 'not_enrollable_outcome':
      return { kind: 'not_enrollable', reason: 'outcome' };
    case 'not_enrollable_opted_out':
      return { kind: 'not_enrollable', reason: 'opted_out' };
    case 'do_not_contact':
      announce(deps.queues, deps.logger, recordedActivities(leadId, rows));
      return { kind: 'not_enrollable', reason: 'do_not_contact' };
    case 'already_enrolled':
      return { kind: 'already_enrolled', enrollmentId: String(first.r_enrollment_id) };
    case 'enrolled': {
      const enrollmentId = String(first.r_enrollment_id);
      announce(deps.queues, deps.logger, recordedActivities(leadId, rows));
      if (first.r_first_step_at) scheduleStep(deps, enrollmentId, 0, first.r_first_step_at);
      return { kind: 'enrolled', enrollmentId, firstStepAt: first.r_first_step_at };
    }
  }
}
