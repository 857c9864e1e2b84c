import type { Logger } from '@leadhook/observability';
import { type JobPayloads, payloadOf } from '@leadhook/queue';
import { DelayedError, type Job } from 'bullmq';
import type { WebhookDeps } from '../webhook.deps.js';
import { logAttempt } from './attempt.sender.js';
import { runDelivery } from './cap.runner.js';

/** A `delivery` job's data: attempt `attempt` of delivery `delivery_id` (ids only; the row is the truth). */
export type DeliveryJobData = JobPayloads['delivery'];

/**
 * The BullMQ processor of the `delivery` queue: runs the job (chain.runner.ts)
 * and, when its delivery is not due yet or was handed back, moves the same job
 * to delayed so that it stays the attempt's one live job. A malformed payload
 * fails the job for good (payloadOf).
 */
export function deliveryProcessor(deps: WebhookDeps, logger: Logger) {
  return async (job: Job<DeliveryJobData>, token?: string): Promise<void> => {
    const payload = payloadOf('delivery', job);
    const result = await runDelivery(deps, payload, (report) => logAttempt(logger, report));
    if (result.kind === 'skipped') {
      logger.debug(
        {
          delivery_id: payload.delivery_id,
          attempt: payload.attempt,
          reason: result.reason,
        },
        'delivery job skipped',
      );
    }
    if (result.kind !== 'not_due' && result.kind !== 'handed_back' && result.kind !== 'capped') {
      return;
    }
    if (token) {
      // Fired before the row's due time (a reconciler that looked ahead) or
      // while another worker holds its lease: the same job waits, keeping its
      // work key. Handed back (this process is stopping): it is due now, for
      // another worker. Capped: a holder of its subscription's slots sends it
      // when one is free (cap.runner.ts); the job comes back after the cap's ttl
      // in case none does (a holder that died: its slot has lapsed by then).
      const dueAt =
        result.kind === 'not_due'
          ? result.dueAt.getTime()
          : result.kind === 'capped'
            ? Date.now() + (deps.cap?.ttlMs ?? 0)
            : Date.now();
      await job.moveToDelayed(dueAt, token);
      throw new DelayedError();
    }
  };
}
