import type { ContactHours } from '@leadhook/config';
import type { Pool, PrismaClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { MessagingProvider } from '@leadhook/providers';
import type { QueueSet } from '@leadhook/queue';

/** What the enrollment and step jobs and the reconciler work with. */
export interface PlaybookDeps {
  prisma: PrismaClient;
  /**
   * Plain pg connections for the hot path (enrollment and steps call one SQL
   * function per transition; Prisma's per-statement cost was most of the CPU).
   */
  pool: Pool;
  queues: QueueSet;
  logger: Logger;
  provider: MessagingProvider;
  /** CONTACT_HOURS: the default local window, narrowed by state rules. */
  contactHours: ContactHours;
  /** PROVIDER_RETRY_SCHEDULE: the waits before a step's send is tried again after a 429/5xx. */
  providerRetryScheduleMs: readonly number[];
  /**
   * Called when the provider refused the credentials: the worker stops taking
   * steps and reports unready (playbook.component.ts).
   */
  onCredentialsRefused: () => void;
  /** Whether it has been (the step job then takes no step: step.job.ts). */
  credentialsRefused: () => boolean;
  /** The clock every scheduling decision reads (tests inject a fixed instant). */
  now: () => Date;
}

/**
 * How early a step may run relative to next_run_at: a delayed job fires on Redis's
 * clock, the row was written on this process's clock.
 */
export const DUE_TOLERANCE_MS = 250;

/** Enqueues a step's job for its due time; a failure is left to the reconciler. */
export function scheduleStep(
  deps: PlaybookDeps,
  enrollmentId: string,
  step: number,
  dueAt: Date,
): void {
  const delayMs = Math.max(0, dueAt.getTime() - deps.now().getTime());
  deps.queues
    .enqueue('playbook-step', { enrollment_id: enrollmentId, step }, delayMs)
    .catch((err: unknown) => {
      deps.logger.warn(
        { err, enrollment_id: enrollmentId, step },
        'step enqueue failed; the reconciler will enqueue it',
      );
    });
}
