import { announce, type RecordedActivity, recordActivityInTx } from '@leadhook/activities';
import { newId } from '@leadhook/db';
import type { PlaybookDeps } from './playbook.deps.js';
import { STEP_TX_OPTIONS, scheduleStep } from './playbook.deps.js';
import { parseSteps } from './steps.js';

export type EnrollResult =
  | { kind: 'enrolled'; enrollmentId: string; firstStepAt: Date | null }
  | { kind: 'already_enrolled'; enrollmentId: string }
  | { kind: 'not_enrollable'; reason: 'outcome' | 'opted_out' }
  | { kind: 'lead_not_found' };

interface LockedLead {
  id: string;
  playbook_id: string;
  outcome: string | null;
  opted_out: boolean;
}

/**
 * Enrolls an accepted lead in its playbook (CONTRACT §4). In ONE transaction: the
 * enrollment row, the `started` activity, and the closing of the lead's open
 * `enrollment` outbox rows (the consumer closes the row once the effect exists,
 * DESIGN.md). Safe to run twice: a lead already enrolled (Enrollment.lead_id is
 * unique, and the lead's row lock serialises two workers) only gets its rows
 * closed. A lead with an outcome or opted out is not enrolled.
 */
export async function enrollLead(deps: PlaybookDeps, leadId: string): Promise<EnrollResult> {
  const now = deps.now();
  const { result, activities } = await deps.prisma.$transaction(async (tx) => {
    const done = (r: EnrollResult, a: RecordedActivity[] = []) => ({ result: r, activities: a });
    await tx.$executeRaw`
      UPDATE outbox SET done_at = now()
       WHERE topic = 'enrollment' AND payload->>'lead_id' = ${leadId} AND done_at IS NULL`;
    const [lead] = await tx.$queryRaw<LockedLead[]>`
      SELECT id, playbook_id, outcome, opted_out FROM leads WHERE id = ${leadId} FOR UPDATE`;
    if (!lead) return done({ kind: 'lead_not_found' });
    const existing = await tx.enrollment.findUnique({
      where: { leadId },
      select: { id: true },
    });
    if (existing) return done({ kind: 'already_enrolled', enrollmentId: existing.id });
    if (lead.outcome !== null) return done({ kind: 'not_enrollable', reason: 'outcome' });
    if (lead.opted_out) return done({ kind: 'not_enrollable', reason: 'opted_out' });

    const playbook = await tx.playbook.findUniqueOrThrow({
      where: { id: lead.playbook_id },
      select: { steps: true },
    });
    const steps = parseSteps(playbook.steps);
    const first = steps[0];
    // Enrollment starts the steps at once: the first one is due after its own delay.
    const firstStepAt = first ? new Date(now.getTime() + first.delay_seconds * 1000) : null;
    const enrollmentId = newId('enrollment');
    await tx.enrollment.create({
      data: {
        id: enrollmentId,
        leadId,
        playbookId: lead.playbook_id,
        status: 'active',
        currentStep: 0,
        nextRunAt: firstStepAt,
      },
    });
    const started = await recordActivityInTx(tx, {
      leadId,
      type: 'event',
      label: 'started',
      enrollmentId,
      data: { steps: steps.length },
    });
    if (started.kind !== 'recorded') throw new Error(`started not recorded: ${started.kind}`);
    return done({ kind: 'enrolled', enrollmentId, firstStepAt }, started.activities);
  }, STEP_TX_OPTIONS);

  announce(deps.queues, deps.logger, activities);
  if (result.kind === 'enrolled' && result.firstStepAt) {
    scheduleStep(deps, result.enrollmentId, 0, result.firstStepAt);
  }
  return result;
}
