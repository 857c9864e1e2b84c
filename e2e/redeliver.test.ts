import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@leadhook/config';
import { createAccount, createPrisma, type PrismaClient } from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { createLogger, createMetrics } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { waitFor } from '@leadhook/testkit';
import type { WorkerRuntime } from '@leadhook/worker-runtime';
import supertest from 'supertest';
import { createApp } from '../services/api/src/app.js';
import { createLeadOf } from '../services/api/src/testing/deliveries.factory.js';
import { forgetRedis } from '../services/webhook-worker/src/testing/harness.js';
import { createWorker } from '../services/webhook-worker/src/worker.js';

/**
 * Redeliver and recover send at once: the api and the webhook worker, in this
 * process, on one database and queue prefix, with the worker's reconciler slowed
 * to once an hour. A delivery that reaches the subscriber after the API call was
 * enqueued by the call itself (docs/webhooks.md "Redelivery").
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Long enough that nothing in a test is found by the reconciler. */
const RECONCILE_INTERVAL_MS = 3_600_000;

let db: TestDatabase;
let prisma: PrismaClient;
let queues: QueueSet;
let worker: WorkerRuntime;
let app: ReturnType<typeof createApp>;
let server: Server;
let subscriberUrl: string;
/** The subscriber's answer status; the requests it got (webhook-id of each). */
let answer = 500;
const received: string[] = [];
const prefix = `e2e-redeliver-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 4 });
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  subscriberUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const config = loadConfig({
    DATABASE_URL: db.url,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // One try per delivery: a 500 fails it at once.
    WEBHOOK_RETRY_SCHEDULE: '0',
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  worker = createWorker({
    config,
    port: 0,
    logger: createLogger({ service: 'webhook-worker', level: 'silent' }),
    relayIntervalMs: 100,
    webhooks: { reconcileIntervalMs: RECONCILE_INTERVAL_MS },
  });
  await worker.start();
  queues = new QueueSet({ redisUrl: REDIS_URL, prefix });
  await waitFor(() => queues.redis.status === 'ready');
  app = createApp({
    prisma,
    logger: createLogger({ service: 'api', level: 'silent' }),
    metrics: createMetrics('api'),
    queues,
    options: { publicBaseUrl: 'https://leads.example.test', webhookAllowPrivateTargets: true },
  });
});

afterAll(async () => {
  await worker.stop();
  await queues.close();
  await forgetRedis(prefix);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await prisma.$disconnect();
  await db.drop();
});

interface ShownDelivery {
  id: string;
  activity_id: string;
  status: string;
  attempt_count: number;
  attempts: { id: string; attempted_at: string; status_code: number | null }[];
}

/** An account, a subscription to every event, a lead, and `count` activities on it that failed. */
async function failedDeliveries(count: number) {
  const { account_id: accountId, api_key: apiKey } = await createAccount(prisma, 'Redeliver');
  const api = (verb: 'get' | 'post', path: string) =>
    supertest(app)[verb](`/api/v1${path}`).set('authorization', `Bearer ${apiKey}`);
  const playbookId: string = (await api('post', '/playbooks').send({ name: 'Empty', steps: [] }))
    .body.id;
  const subscriptionId: string = (
    await api('post', `/playbooks/${playbookId}/subscriptions`).send({
      url: subscriberUrl,
      events: ['*'],
    })
  ).body.id;
  const leadId = await createLeadOf(prisma, accountId, playbookId);
  answer = 500;
  /** The activities in the order they occurred. */
  const activityIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const reported = await api('post', `/leads/${leadId}/activities`).send({
      activity_type: 'event',
      activity_label: 'interested',
    });
    expect(reported.status).toBe(201);
    activityIds.push(reported.body.id);
  }
  const log = async () =>
    (await api('get', `/subscriptions/${subscriptionId}/deliveries`)).body.data as ShownDelivery[];
  const failed = await waitFor(async () => {
    const shown = await log();
    return shown.length === count && shown.every((d) => d.status === 'failed') ? shown : undefined;
  });
  return { api, subscriptionId, log, failed, activityIds };
}

it('redeliver sends at once, keeps the earlier attempt and counts on', async () => {
  const { api, log, failed } = await failedDeliveries(1);
  const [delivery] = failed;
  if (!delivery) throw new Error('no delivery');
  expect(delivery.attempt_count).toBe(1);
  const firstTry = delivery.attempts[0];

  answer = 200;
  const before = received.length;
  const res = await api('post', `/deliveries/${delivery.id}/redeliver`);
  expect(res.status).toBe(200);
  // The reconciler runs once an hour here: only the API's own enqueue sends it.
  const done = await waitFor(
    async () => (await log()).find((d) => d.id === delivery.id && d.status === 'succeeded'),
    { timeoutMs: 20_000 },
  );
  expect(received.slice(before)).toEqual([delivery.activity_id]);
  expect(done.attempt_count).toBe(2);
  expect(done.attempts).toHaveLength(2);
  // The first try as it was recorded (its next_attempt_at now points at the second).
  expect(done.attempts[0]).toEqual({
    ...firstTry,
    next_attempt_at: done.attempts[1]?.attempted_at,
  });
  expect(done.attempts[1]?.status_code).toBe(200);
});

it('recover sends every failed delivery at once, a lead in order', async () => {
  const { api, subscriptionId, log, activityIds } = await failedDeliveries(3);
  answer = 200;
  const before = received.length;
  const res = await api('post', `/subscriptions/${subscriptionId}/recover`).send({
    since: '2000-01-01T00:00:00Z',
  });
  expect(res.body).toEqual({ recovered: 3 });
  await waitFor(
    async () => ((await log()).every((d) => d.status === 'succeeded') ? true : undefined),
    {
      timeoutMs: 20_000,
    },
  );
  // One lead's deliveries to one subscriber go in the order the activities occurred.
  expect(received.slice(before)).toEqual(activityIds);
  for (const d of await log()) expect(d.attempt_count).toBe(2);
});
