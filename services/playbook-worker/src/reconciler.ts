import type { PlaybookDeps } from './playbook.deps.js';

export interface ReconcileOptions {
  /** Enrollments due up to this far ahead are scheduled too (as delayed jobs). */
  horizonMs: number;
  batchSize?: number;
}

/**
 * Re-enqueues the step of every active play that PostgreSQL says is due (or due
 * within the horizon) in case Redis, which keeps nothing on disk, has forgotten
 * its job (docs/operations.md, "Architecture"), in one Redis round trip. BullMQ's
 * deduplication leaves alone a step whose job Redis still holds live, and adds
 * one whose job completed or failed while the row still points at its step (a
 * processing error). Returns how many were enqueued.
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
  const nowMs = now.getTime();
  const { sent } = await deps.queues.addMany(
    'playbook-step',
    due.flatMap((row) =>
      row.nextRunAt
        ? [
            {
              payload: { enrollment_id: row.id, step: row.currentStep },
              delayMs: Math.max(0, row.nextRunAt.getTime() - nowMs),
            },
          ]
        : [],
    ),
  );
  return sent;
}
