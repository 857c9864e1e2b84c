import { randomBytes } from 'node:crypto';
import { createPrisma, type PrismaClient } from '@leadhook/db';
import {
  aLead,
  anAccount,
  aSource,
  createTestDatabase,
  forgetRedis,
  Subscriber,
  TEST_REDIS_URL,
  type TestDatabase,
} from '@leadhook/testkit';
import {
  type ApiClient,
  apiClient,
  ensureBuilt,
  freePort,
  type ServiceProcess,
  startProcess,
  waitFor,
} from './support.js';

/**
 * Redeliver and recover send at once: the built api and webhook worker on one
 * database and queue prefix, with the worker's reconciler slowed to once an hour.
 * A delivery that reaches the subscriber after the API call was enqueued by the
 * call itself (docs/webhooks.md "Redelivery").
 */

/** Long enough that nothing in a test is found by the reconciler. */
const RECONCILE_INTERVAL_MS = 3_600_000;

let db: TestDatabase;
let prisma: PrismaClient;
let api: ServiceProcess;
let worker: ServiceProcess;
let subscriber: Subscriber;
/** The subscriber's answer status. */
let answer = 500;
const prefix = `e2e-redeliver-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ensureBuilt();
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 4 });
  subscriber = await Subscriber.start((_req, res) => {
    res.statusCode = answer;
    res.end();
  });
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    PUBLIC_BASE_URL: 'https://leads.example.test',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // The delivery log is polled: no rate limit in the way.
    API_RATE_LIMIT_PER_KEY: '0',
    API_RATE_LIMIT_PER_ADDRESS: '0',
    // One try per delivery: a 500 fails it at once.
    WEBHOOK_RETRY_SCHEDULE: '0',
    WEBHOOK_TIMEOUT_MS: '2000',
    RECONCILE_INTERVAL_MS: String(RECONCILE_INTERVAL_MS),
  };
  [api, worker] = await Promise.all([
    startProcess('api', await freePort(), env),
    startProcess('webhook-worker', await freePort(), env),
  ]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await forgetRedis(prefix);
  await subscriber?.close();
  await prisma?.$disconnect();
  await db?.drop();
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
  const { account_id: accountId, api_key: apiKey } = await anAccount(prisma, 'Redeliver');
  const call: ApiClient = apiClient(api.port, apiKey);
  const json = async (res: Promise<Response>) => ({
    status: (await res).status,
    body: (await (await res).json()) as Record<string, unknown>,
  });
  const playbookId = (
    await json(call('/playbooks', { method: 'POST', body: { name: 'Empty', steps: [] } }))
  ).body.id as string;
  const subscriptionId = (
    await json(
      call(`/playbooks/${playbookId}/subscriptions`, {
        method: 'POST',
        body: { url: subscriber.url, events: ['*'] },
      }),
    )
  ).body.id as string;
  const source = await aSource(prisma, { accountId, playbookId });
  const lead = await aLead(prisma, { accountId, playbookId, sourceId: source.id });
  answer = 500;
  /** The activities in the order they occurred. */
  const activityIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const reported = await json(
      call(`/leads/${lead.id}/activities`, {
        method: 'POST',
        body: { activity_type: 'event', activity_label: 'interested' },
      }),
    );
    expect(reported.status).toBe(201);
    activityIds.push(reported.body.id as string);
  }
  const log = async () =>
    (await json(call(`/subscriptions/${subscriptionId}/deliveries`))).body.data as ShownDelivery[];
  const failed = await waitFor(async () => {
    const shown = await log();
    return shown.length === count && shown.every((d) => d.status === 'failed') ? shown : undefined;
  });
  const post = (path: string, body?: unknown) =>
    json(call(path, { method: 'POST', ...(body === undefined ? {} : { body }) }));
  return { post, subscriptionId, log, failed, activityIds };
}

it('redeliver sends at once, keeps the earlier attempt and counts on', async () => {
  const { post, log, failed } = await failedDeliveries(1);
  const [delivery] = failed;
  if (!delivery) throw new Error('no delivery');
  expect(delivery.attempt_count).toBe(1);
  const firstTry = delivery.attempts[0];

  answer = 200;
  const before = subscriber.received.length;
  const res = await post(`/deliveries/${delivery.id}/redeliver`);
  expect(res.status).toBe(200);
  // The reconciler runs once an hour here: only the API's own enqueue sends it.
  const done = await waitFor(
    async () => (await log()).find((d) => d.id === delivery.id && d.status === 'succeeded'),
    20_000,
  );
  expect(subscriber.ids().slice(before)).toEqual([delivery.activity_id]);
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
  const { post, subscriptionId, log, activityIds } = await failedDeliveries(3);
  answer = 200;
  const before = subscriber.received.length;
  const res = await post(`/subscriptions/${subscriptionId}/recover`, {
    since: '2000-01-01T00:00:00Z',
  });
  expect(res.body).toEqual({ recovered: 3 });
  await waitFor(
    async () => ((await log()).every((d) => d.status === 'succeeded') ? true : undefined),
    20_000,
  );
  // One lead's deliveries to one subscriber go in the order the activities occurred.
  expect(subscriber.ids().slice(before)).toEqual(activityIds);
  for (const d of await log()) expect(d.attempt_count).toBe(2);
});
