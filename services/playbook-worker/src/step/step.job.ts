import type { Logger } from '@leadhook/observability';
import { payloadOf } from '@leadhook/queue';
import { DelayedError, type Job } from 'bullmq';
import type { Counter, Histogram } from 'prom-client';
import type { PlaybookDeps } from '../playbook.deps.js';
import { runStep, type StepPayload, type StepResult } from './step.runner.js';

/** The series a step job counts (docs/operations.md, "Metrics"). */
export interface StepMetrics {
  /** leadhook_playbook_steps_total */
  steps: Counter<'type' | 'result'>;
  /** leadhook_playbook_step_lag_seconds */
  lag: Histogram<string>;
}

/**
 * The BullMQ processor of the `playbook-step` queue: runs the step
 * (step.runner.ts), counts and logs it, and moves a deferred or early job to
 * delayed so that it stays the step's one live job. A malformed payload fails
 * the job for good (payloadOf).
 */
/**
 * At the default level (info) the log says what happened to a lead: a step
 * that ran, and a step first put off to the contact window. A deferral seen
 * again, a job that was not due yet, or one another worker had already taken
 * are the queue's mechanics: debug (docs/operations.md, "Logs").
 */
export function stepLogLevel(result: StepResult): 'info' | 'debug' {
  // A carrier's refusal puts a lead's step off: news (refused credentials are
  // logged once as an error by the component instead).
  if (result.kind === 'ran' || result.kind === 'retry') return 'info';
  if (result.kind === 'deferred') return result.recorded ? 'info' : 'debug';
  return 'debug';
}

export function stepProcessor(deps: PlaybookDeps, logger: Logger, metrics: StepMetrics) {
  return async (job: Job<StepPayload>, token?: string): Promise<void> => {
    const started = Date.now();
    const payload = payloadOf('playbook-step', job);
    if (deps.credentialsRefused() && token) {
      // The provider refused our credentials: no step is claimed until a worker
      // with good ones takes this job (the BullMQ worker is paused too, but a
      // job it was already fetching still arrives here).
      const delayMs = deps.providerRetryScheduleMs[0] ?? 30_000;
      await job.moveToDelayed(Date.now() + delayMs, token);
      throw new DelayedError();
    }
    const result = await runStep(deps, payload);
    const fields = {
      enrollment_id: payload.enrollment_id,
      step: payload.step,
      result: result.kind,
      duration_ms: Date.now() - started,
    };
    if (result.kind === 'ran') {
      metrics.steps.inc({ type: result.type, result: result.status });
      metrics.lag.observe(result.lagSeconds);
      logger.info({ ...fields, lead_id: result.leadId, status: result.status }, 'playbook step');
      return;
    }
    metrics.steps.inc({ type: 'unknown', result: result.kind });
    logger[stepLogLevel(result)](
      result.kind === 'skipped'
        ? { ...fields, reason: result.reason }
        : result.kind === 'retry'
          ? { ...fields, attempts: result.attempts, retry_at: result.until.toISOString() }
          : fields,
      'playbook step',
    );
    if (result.kind === 'credentials_refused') deps.onCredentialsRefused();
    if (result.kind !== 'skipped' && token) {
      // The same job waits for the new due time, still holding the step's work
      // key (a reconciler's add is dropped): BullMQ's "move to delayed" pattern.
      // A step the carrier could not take yet waits the same way (its claim was
      // rolled back).
      const at = result.kind === 'not_due' ? result.dueAt : result.until;
      const delayMs = Math.max(0, at.getTime() - deps.now().getTime());
      await job.moveToDelayed(Date.now() + delayMs, token);
      throw new DelayedError();
    }
  };
}
