import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import { createWorkerRedis } from './connection.js';
import { jobsOf, liveJob, QueueSet } from './queues.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let queues: QueueSet;
let prefix: string;

beforeEach(async () => {
  prefix = `test-${randomBytes(4).toString('hex')}`;
  queues = new QueueSet({ redisUrl: REDIS_URL, prefix });
  for (let i = 0; i < 100 && queues.redis.status !== 'ready'; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
});

afterEach(async () => {
  await queues.get('playbook-step').obliterate({ force: true });
  await queues.close();
});

const step = { enrollment_id: 'enr_1', step: 2 };

describe('one live job per work item', () => {
  it('drops an add while the item has a waiting or delayed job', async () => {
    await queues.enqueue('playbook-step', step, 60_000);
    await queues.enqueue('playbook-step', step);
    expect(await queues.requeueMany('playbook-step', [step])).toEqual({ sent: 0, pending: 1 });
    const queue = queues.get('playbook-step');
    const jobs = await jobsOf(queue, 'playbook-step', step);
    expect(jobs).toHaveLength(1);
    expect(await jobs[0]?.getState()).toBe('delayed');
    expect((await liveJob(queue, 'playbook-step', step))?.id).toBe(jobs[0]?.id);
  });

  it('adds a new job once the last one finished, and counts what it sent', async () => {
    await queues.enqueue('playbook-step', step);
    const queue = queues.get('playbook-step');
    const connection = createWorkerRedis(REDIS_URL);
    const worker = new Worker('playbook-step', async () => {}, { connection, prefix });
    try {
      for (let i = 0; i < 200 && (await liveJob(queue, 'playbook-step', step)); i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await worker.close();
      connection.disconnect();
    }
    expect(await liveJob(queue, 'playbook-step', step)).toBeUndefined();
    const other = { enrollment_id: 'enr_2', step: 0 };
    expect(
      await queues.addMany('playbook-step', [
        { payload: step },
        { payload: other, delayMs: 60_000 },
        { payload: other },
      ]),
    ).toEqual({ sent: 2, pending: 1 });
    const states = await Promise.all(
      (await jobsOf(queue, 'playbook-step', step)).map((job) => job.getState()),
    );
    expect(states).toEqual(['waiting', 'completed']);
    expect(await (await liveJob(queue, 'playbook-step', other))?.getState()).toBe('delayed');
  });
});
