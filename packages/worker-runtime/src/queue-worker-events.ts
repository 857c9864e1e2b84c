import type { Logger } from '@leadhook/observability';

/** What logQueueWorkerEvents needs of a BullMQ Worker. */
export interface QueueWorkerEvents {
  readonly name: string;
  on(event: 'failed', listener: (job: { id?: string } | undefined, error: Error) => void): unknown;
  on(event: 'error', listener: (failure: Error) => void): unknown;
}

/**
 * Logs what a process's BullMQ workers report on their own, each line with its
 * queue's name: every failed try of a job (its processor threw) at error, a
 * worker's own trouble (Redis unreachable) at warn.
 */
export function logQueueWorkerEvents(workers: readonly QueueWorkerEvents[], logger: Logger): void {
  for (const worker of workers) {
    worker.on('failed', (job, err) => {
      logger.error({ err, job_id: job?.id, queue: worker.name }, 'job failed');
    });
    worker.on('error', (err) => {
      logger.warn({ err, queue: worker.name }, 'queue worker error');
    });
  }
}
