import { createPool, createPrisma, type Pool } from '@leadhook/db';
import { createLogger, createMetrics } from '@leadhook/observability';
import { liveJob, OutboxRelay, outboxTopicsRelayedBy } from '@leadhook/queue';
import { closedPort, PrivateRedis, waitFor } from '@leadhook/testkit';
import request from 'supertest';
import { createApp, createInternalApp } from './app.js';
import { type Harness, playbookBody, sourceBody, startHarness } from './testing/harness.js';
import { createLead } from './testing/leads.factory.js';

// The api needs PostgreSQL; Redis only carries the fast-path announcement of a
// reported activity, which the outbox row committed with it covers. So /readyz
// names Redis but stays 200 without it, as intake's does (docs/operations.md, "Health and readiness").
// The checks are named on the internal port only; the public /readyz gives the
// status alone (docs/operations.md, "What to expose").

describe('api /readyz and Redis', () => {
  let redis: PrivateRedis;
  let h: Harness;
  let relay: OutboxRelay | undefined;
  let relayPool: Pool | undefined;

  beforeAll(async () => {
    redis = await PrivateRedis.onFreePort();
    h = await startHarness({}, { redisUrl: redis.url });
  });

  afterAll(async () => {
    await relay?.stop();
    await relayPool?.end();
    // The harness removes its jobs from Redis on close: it must be running.
    await redis.start();
    await waitFor(() => h.queues.redis.status === 'ready', 30_000);
    await h.close();
    await redis.stop();
  }, 60_000);

  it('is ready with Redis up and names both checks', async () => {
    await waitFor(() => h.queues.redis.status === 'ready');
    const res = await request(h.internal).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
    const bare = await request(h.app).get('/readyz');
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual({ status: 'ok' });
  });

  it('is not ready without PostgreSQL, whatever Redis says', async () => {
    const prisma = createPrisma({
      databaseUrl: `postgresql://postgres@127.0.0.1:${await closedPort()}/x`,
    });
    try {
      const deps = {
        prisma,
        pool: h.pool,
        logger: createLogger({ service: 'api-test', level: 'silent' }),
        metrics: createMetrics('api-test'),
        queues: h.queues,
        options: { publicBaseUrl: 'https://leads.example.test' },
      };
      const res = await request(createInternalApp(deps)).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: 'unavailable',
        checks: { postgres: 'unavailable', redis: 'ok' },
      });
      const bare = await request(createApp(deps)).get('/readyz');
      expect(bare.status).toBe(503);
      expect(bare.body).toEqual({ status: 'unavailable' });
    } finally {
      await prisma.$disconnect();
    }
  });

  it('stays ready while Redis is away, serves requests, and the outbox relays a reported activity once Redis is back', async () => {
    await redis.stop();
    await waitFor(() => h.queues.redis.status !== 'ready');

    const ready = await request(h.internal).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'unavailable' } });

    // Writes and reads of the management API need only PostgreSQL.
    const { api_key, account_id } = await h.newAccount();
    const api = h.as(api_key);
    const playbook = await api.post('/api/v1/playbooks').send(playbookBody());
    expect(playbook.status).toBe(201);
    const source = await api.post('/api/v1/marketing_sources').send(sourceBody(playbook.body.id));
    expect(source.status).toBe(201);
    const leadId = await createLead(h.prisma, {
      accountId: account_id,
      sourceId: source.body.id,
      playbookId: playbook.body.id,
    });

    // The one path that touches Redis: the activity is recorded with its outbox
    // row (201), and its fast-path enqueue fails without delaying the answer.
    const reported = await api
      .post(`/api/v1/leads/${leadId}/activities`)
      .send({ activity_type: 'event', activity_label: 'call_answered' });
    expect(reported.status).toBe(201);
    const activityId: string = reported.body.id;
    const open = { payload: { equals: { activity_id: activityId } }, doneAt: null };
    expect(await h.prisma.outbox.count({ where: { topic: 'activity', ...open } })).toBe(1);
    expect((await api.get(`/api/v1/leads/${leadId}`)).status).toBe(200);

    // Redis comes back empty; a worker's relay sends the job after the grace period.
    await redis.start();
    await waitFor(() => h.queues.redis.status === 'ready', 30_000);
    const inspect = h.queues.get('activity');
    expect(await liveJob(inspect, 'activity', { activity_id: activityId })).toBeUndefined();
    relayPool = createPool({ databaseUrl: h.db.url });
    relay = new OutboxRelay({
      pool: relayPool,
      queues: h.queues,
      topics: outboxTopicsRelayedBy('webhook-worker'),
      intervalMs: 200,
    });
    relay.start();
    const job = await waitFor(() => liveJob(inspect, 'activity', { activity_id: activityId }), {
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    expect(job.data).toEqual({ activity_id: activityId });
  }, 60_000);
});
