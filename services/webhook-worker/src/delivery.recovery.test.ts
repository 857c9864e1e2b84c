import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ActivityRecorder } from '@leadhook/activities';
import { createLogger } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { forgetRedis, freePort, TEST_REDIS_URL, waitFor } from '@leadhook/testkit';
import { Harness } from './testing/harness.js';

// At-least-once (docs/webhooks.md): PostgreSQL is the truth; a worker killed
// mid-delivery or a Redis that forgot everything loses no delivery.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const silent = createLogger({ service: 'test', level: 'silent' });

let h: Harness;
const children: ChildProcess[] = [];
const producers: QueueSet[] = [];

beforeAll(async () => {
  // The kill test runs the built process, as operators do.
  await promisify(execFile)('npx', ['tsc', '-b', 'tsconfig.build.json'], { cwd: ROOT });
  h = await Harness.create();
}, 180_000);
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(producers.splice(0).map((q) => q.close()));
  await h.stopWorkers();
});
afterAll(async () => {
  await h.close();
});

async function recorderOn(prefix: string): Promise<ActivityRecorder> {
  const queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
  producers.push(queues);
  await waitFor(() => queues.redis.status === 'ready');
  return new ActivityRecorder({ prisma: h.prisma, queues, logger: silent });
}

async function recordStarted(recorder: ActivityRecorder, leadId: string): Promise<string> {
  const result = await recorder.record({ leadId, type: 'event', label: 'started' });
  const id = result.kind === 'recorded' ? result.activities[0]?.id : undefined;
  if (!id) throw new Error('not recorded');
  return id;
}

describe('at-least-once delivery', () => {
  it('a worker killed with SIGKILL mid-delivery loses nothing: another one delivers it', async () => {
    const prefix = Harness.newPrefix();
    let answering = false;
    const sub = await h.subscriber((_req, res) => {
      if (answering) res.end('ok');
      // else: never answers, as if the subscriber were slow when the worker died
    });
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      stdio: 'ignore',
      env: {
        ...process.env,
        DATABASE_URL: h.db.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        WEBHOOK_WORKER_PORT: String(await freePort()),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_RETRY_SCHEDULE: '0,100ms',
        LOG_LEVEL: 'silent',
      },
    });
    children.push(child);
    const activityId = await recordStarted(await recorderOn(prefix), await h.lead());
    await waitFor(() => sub.received.length === 1, 30_000);

    child.kill('SIGKILL');
    await waitFor(() => child.exitCode !== null || child.signalCode !== null);
    answering = true;
    // A second worker on the same queues: BullMQ's stalled-job check hands it the
    // killed worker's job once its lock (bounded by the attempt timeout, at most 30 s) lapses.
    await h.startWorker({ WEBHOOK_TIMEOUT_MS: '2000' }, {}, prefix);
    const delivery = await waitFor(async () => {
      const d = await h.prisma.delivery.findUnique({
        where: { activityId_subscriptionId: { activityId, subscriptionId } },
        include: { attempts: true },
      });
      return d?.status === 'succeeded' && d;
    }, 60_000);
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200]);
    expect(new Set(sub.ids())).toEqual(new Set([activityId]));
    expect(sub.received.length).toBe(2);
  }, 120_000);

  it.each([
    ["from a fan-out's send slot", {}],
    ['from a delivery job', { sendSlots: 0 }],
  ])(
    'a worker stopping mid-attempt to a subscriber that does not answer stops within SHUTDOWN_TIMEOUT_MS and hands the delivery back (%s)',
    async (_from, sending) => {
      const prefix = Harness.newPrefix();
      let answering = false;
      const sub = await h.subscriber((_req, res) => {
        if (answering) res.end('ok');
        // else: never answers, and the attempt's timeout is longer than the stop's bound
      });
      const { id: subscriptionId } = await h.subscription({ url: sub.url });
      // No reconciler rounds: only the hand-back may bring the delivery back in time.
      const quiet = { reconcileIntervalMs: 600_000 };
      const env = { WEBHOOK_TIMEOUT_MS: '10000', SHUTDOWN_TIMEOUT_MS: '1500' };
      const first = await h.startWorker(env, { ...quiet, ...sending }, prefix);
      const activityId = await recordStarted(first.recorder, await h.lead());
      await waitFor(() => sub.received.length === 1);

      const started = Date.now();
      await first.runtime.stop();
      expect(Date.now() - started).toBeLessThan(1500);
      // Handed back: no attempt recorded for the interrupted try, the lease ended.
      const where = { activityId_subscriptionId: { activityId, subscriptionId } };
      expect(
        await h.prisma.delivery.findUnique({ where, include: { attempts: true } }),
      ).toMatchObject({ status: 'pending', attemptCount: 0, claimedUntil: null, attempts: [] });

      answering = true;
      await h.startWorker(env, quiet, prefix);
      // At once: its lease (15 s) would still hold it if it had been left to lapse.
      const delivery = await waitFor(async () => {
        const d = await h.prisma.delivery.findUnique({ where, include: { attempts: true } });
        return d?.status === 'succeeded' && d;
      }, 5000);
      expect(delivery.attempts.map((a) => [a.statusCode, a.error])).toEqual([[200, null]]);
      expect(sub.ids()).toEqual([activityId, activityId]);
    },
    60_000,
  );

  it('a Redis that forgot every job (fan-out and a scheduled retry) loses nothing', async () => {
    const prefix = Harness.newPrefix();
    let calls = 0;
    const sub = await h.subscriber((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(503).end();
      else res.end('ok');
    });
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const activityId = await recordStarted(await recorderOn(prefix), await h.lead());
    // Redis restarts before any worker saw the activity job...
    await waitFor(async () => (await forgetRedis(prefix)) > 0);
    // ...and the outbox row's grace period has passed.
    await h.prisma.outbox.updateMany({
      where: { topic: 'activity', payload: { equals: { activity_id: activityId } } },
      data: { nextRelayAt: new Date() },
    });
    await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,1500ms' }, {}, prefix);
    const where = { activityId_subscriptionId: { activityId, subscriptionId } };
    await waitFor(async () => (await h.prisma.delivery.findUnique({ where }))?.attemptCount === 1);
    // Redis restarts again while the retry waits as a delayed job.
    expect(await forgetRedis(prefix)).toBeGreaterThan(0);
    const delivery = await waitFor(async () => {
      const d = await h.prisma.delivery.findUnique({ where, include: { attempts: true } });
      return d?.status === 'succeeded' && d;
    }, 20_000);
    expect(delivery.attempts.map((a) => a.statusCode).sort()).toEqual([200, 503]);
    expect(sub.ids()).toEqual([activityId, activityId]);
  }, 60_000);
});
