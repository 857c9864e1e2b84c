import { QueueSet, type Topic } from '@leadhook/queue';
import { TEST_REDIS_URL } from './settings.js';
import { waitFor } from './wait.js';

/** What a test reads of a failed job. */
export interface FailedJob {
  attemptsMade: number;
  failedReason: string | undefined;
}

/**
 * Adds each job (named after its topic) to its queue under `prefix`, three attempts
 * allowed so that a retry would show as attemptsMade > 1; waits until every one of
 * them has failed and answers them in the order given.
 */
export async function jobsFailed(
  prefix: string,
  jobs: Array<{ topic: Topic; data: object }>,
): Promise<FailedJob[]> {
  const queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
  try {
    const added: Array<{ topic: Topic; id: string }> = [];
    for (const { topic, data } of jobs) {
      const job = await queues.get(topic).add(topic, data, { attempts: 3 });
      added.push({ topic, id: job.id ?? '' });
    }
    return await waitFor(async () => {
      const states = await Promise.all(
        added.map(({ topic, id }) => queues.get(topic).getJobState(id)),
      );
      if (!states.every((state) => state === 'failed')) return undefined;
      const failed = await Promise.all(added.map(({ topic, id }) => queues.get(topic).getJob(id)));
      return failed.map((job) => ({
        attemptsMade: job?.attemptsMade ?? 0,
        failedReason: job?.failedReason,
      }));
    });
  } finally {
    await queues.close();
  }
}
