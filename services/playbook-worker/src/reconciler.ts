import { QUEUES } from '@leadhook/queue';
import type { PlaybookDeps } from './playbook.deps.js';
import { scheduleStep } from './playbook.deps.js';

export interface ReconcileOptions {
  /** Enrollments due up to this far ahead are scheduled too (as delayed jobs). */
  horizonMs: number;
  batchSize?: number;
}

/**
 * Re-enqueues the step of every active play that PostgreSQL says is due (or due
 * within the horizon) in case Redis, which keeps nothing on disk, has forgotten
 * its job (docs/operations.md, "Architecture"). Deterministic job ids make
 * this harmless for jobs Redis still holds. A job Redis kept as completed or
 * failed while the row still points at its step (a processing error) would block
 * the re-add of its id, so it is removed first. Returns how many were enqueued.
 */
export async function reconcileOnce(
  deps: PlaybookDeps,
  options: ReconcileOptions,
): Promise<number> {
  const now = deps.now();
  const due = await deps.prisma.enrollment.findMany({
    where: { status: 'active', nextRunAt: { lte: new Date(now.getTime() + options.horizonMs) } },
    select: { id: true, currentStep: true, nextRunAt: true },
    orderBy: { nextRunAt: 'asc' },
    take: options.batchSize ?? 500,
  });
  const queue = deps.queues.get('playbook-step');
  let enqueued = 0;
  for (const row of due) {
    if (!row.nextRunAt) continue;
    const payload = { enrollment_id: row.id, step: row.currentStep };
    const jobId = QUEUES['playbook-step'].jobId(payload);
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      await queue.remove(jobId);
    } else if (state !== 'unknown') {
      continue;
    }
    scheduleStep(deps, row.id, row.currentStep, row.nextRunAt);
    enqueued++;
  }
  return enqueued;
}
