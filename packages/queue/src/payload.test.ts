import { randomBytes } from 'node:crypto';
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { createRedis, createWorkerRedis } from './connection.js';
import { payloadOf } from './queues.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('payloadOf', () => {
  it('gives a valid payload back as it is', () => {
    const data = { delivery_id: 'del_1', attempt: 2 };
    expect(payloadOf('delivery', { data })).toBe(data);
  });

  it('refuses a malformed payload for good, naming the rule and not the value', () => {
    const consume = () =>
      payloadOf('enrollment', { data: { lead_id: 'lead_1', email: 'jane@example.com' } });
    expect(consume).toThrow(UnrecoverableError);
    expect(consume).toThrow(/^invalid enrollment job payload: payload must NOT have additional/);
    expect(consume).not.toThrow(/jane/);
  });

  it('fails a malformed job at its first attempt, and the worker goes on with valid ones', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}`;
    const redis = createRedis(REDIS_URL);
    const queue = new Queue('enrollment', { connection: redis, prefix });
    const connection = createWorkerRedis(REDIS_URL);
    const consumed: string[] = [];
    const finished: Promise<Job>[] = [];
    const worker = new Worker(
      'enrollment',
      async (job) => {
        consumed.push(payloadOf('enrollment', job).lead_id);
      },
      { connection, prefix },
    );
    const settled = (id: string) =>
      new Promise<Job>((resolve) => {
        const done = (job: Job | undefined) => {
          if (job?.id === id) resolve(job);
        };
        worker.on('completed', done);
        worker.on('failed', done);
      });
    try {
      await queue.waitUntilReady();
      // Three attempts allowed: a retry would show as attemptsMade > 1.
      const bad = await queue.add('enrollment', { lead: 'lead_1' }, { attempts: 3 });
      finished.push(settled(bad.id ?? ''));
      const good = await queue.add('enrollment', { lead_id: 'lead_2' }, { attempts: 3 });
      finished.push(settled(good.id ?? ''));
      const [failed, completed] = await Promise.all(finished);
      expect(await failed?.getState()).toBe('failed');
      expect(failed?.attemptsMade).toBe(1);
      expect(failed?.failedReason).toMatch(/^invalid enrollment job payload/);
      expect(await completed?.getState()).toBe('completed');
      expect(consumed).toEqual(['lead_2']);
    } finally {
      await worker.close();
      connection.disconnect();
      await queue.obliterate({ force: true });
      await queue.close();
      redis.disconnect();
    }
  });
});
