import { createPool } from '@leadhook/db';
import { liveJob, OutboxRelay, outboxTopicsRelayedBy, QueueSet } from '@leadhook/queue';
import { closedPort, PrivateRedis, twilioSignature, validLead, waitFor } from '@leadhook/testkit';
import { generateSecret, sign } from '@leadhook/webhooks';
import request from 'supertest';
import { countRows, createHarness, type Harness } from './testing/harness.js';

describe('PostgreSQL unavailable', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  it('answers 503 unavailable with Retry-After when PostgreSQL cannot be reached', async () => {
    const source = await h.makeSource();
    const deadPool = createPool({
      databaseUrl: `postgresql://postgres@127.0.0.1:${await closedPort()}/x`,
    });
    try {
      const res = await request(h.buildApp({ pool: deadPool }))
        .post(source.path)
        .send(validLead());
      expect(res.status).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).toEqual({
        status: 'error',
        errors: [{ field: null, code: 'unavailable', message: expect.any(String) }],
      });
    } finally {
      await deadPool.end();
    }
  });

  it("answers the carriers' signed callbacks 503 with Retry-After, so they send them again", async () => {
    const deadPool = createPool({
      databaseUrl: `postgresql://postgres@127.0.0.1:${await closedPort()}/x`,
    });
    const secret = generateSecret();
    const authToken = 'twilio-auth-token-of-the-test';
    const app = h.buildApp({
      pool: deadPool,
      options: {
        providerWebhookSecret: secret,
        twilioAuthToken: authToken,
        publicBaseUrl: 'https://leads.example.test',
      },
    });
    const unavailable = {
      status: 'error',
      errors: [{ field: null, code: 'unavailable', message: expect.any(String) }],
    };
    try {
      const fields = { message_id: 'msg_1', from: '+15125550123', body: 'STOP' };
      const body = new URLSearchParams(fields).toString();
      const timestamp = Math.floor(Date.now() / 1000);
      const simulation = await request(app)
        .post('/providers/simulation/inbound')
        .set('content-type', 'application/x-www-form-urlencoded')
        .set('webhook-id', 'msg_1')
        .set('webhook-timestamp', String(timestamp))
        .set('webhook-signature', sign({ secrets: [secret], id: 'msg_1', timestamp, body }))
        .send(body);
      const params = { MessageSid: 'SM1', From: '+15125550123', To: '+15125550100', Body: 'STOP' };
      const twilio = await request(app)
        .post('/providers/twilio/inbound')
        .set('content-type', 'application/x-www-form-urlencoded')
        .set(
          'x-twilio-signature',
          twilioSignature(authToken, 'https://leads.example.test/providers/twilio/inbound', params),
        )
        .send(new URLSearchParams(params).toString());
      for (const res of [simulation, twilio]) {
        expect(res.status).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.body).toEqual(unavailable);
      }
    } finally {
      await deadPool.end();
    }
  });

  it('stores nothing when the connection dies in the middle of the transaction', async () => {
    const source = await h.makeSource();
    // The connection is terminated while the outbox row is being inserted, after
    // the lead and submission rows of the same statement.
    await h.pool.query(`
      CREATE FUNCTION die_mid_intake() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$;
      CREATE TRIGGER die_mid_intake BEFORE INSERT ON outbox
        FOR EACH ROW EXECUTE FUNCTION die_mid_intake();`);
    try {
      const res = await h.post(source, validLead());
      expect(res.status).toBe(503);
      expect(res.body.errors[0].code).toBe('unavailable');
      expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(0);
      expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(0);
    } finally {
      await h.pool.query('DROP TRIGGER die_mid_intake ON outbox; DROP FUNCTION die_mid_intake()');
    }
    // The pool replaced the dead connection: the seller's retry is accepted.
    const retry = await h.post(source, validLead());
    expect(retry.status).toBe(201);
  });
});

describe('Redis unavailable', () => {
  let redis: PrivateRedis;
  let h: Harness;
  let relayQueues: QueueSet | undefined;
  let relay: OutboxRelay | undefined;

  beforeAll(async () => {
    redis = await PrivateRedis.onFreePort();
    h = await createHarness({ redisUrl: redis.url, options: { defaultRateLimitPerSecond: 1 } });
  });

  afterAll(async () => {
    await relay?.stop();
    await relayQueues?.close();
    await h.close();
    await redis.stop();
  });

  it('keeps answering 201 during the outage; the outbox relay enqueues the leads once Redis is back', async () => {
    const source = await h.makeSource({ rateLimit: 1 });
    const before = await h.post(source, validLead());
    expect(before.status).toBe(201);
    await waitFor(() =>
      liveJob(h.queues.get('enrollment'), 'enrollment', { lead_id: before.body.lead_id }),
    );

    await redis.stop();
    await waitFor(() => h.redis.status !== 'ready' && h.queues.redis.status !== 'ready');
    const during: string[] = [];
    // Four leads at once against a limit of 1/s: the limiter cannot count without
    // Redis and lets them through.
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => h.post(source, validLead())),
    );
    for (const res of responses) {
      expect(res.status).toBe(201);
      during.push(res.body.lead_id);
    }
    expect(await countRows(h.pool, 'leads', 'id = ANY($1)', [during])).toBe(4);
    expect(
      await countRows(h.pool, 'outbox', "payload->>'lead_id' = ANY($1) AND done_at IS NULL", [
        during,
      ]),
    ).toBe(4);

    // Redis comes back empty (it keeps nothing on disk): the jobs are not there.
    await redis.start();
    await waitFor(() => h.queues.redis.status === 'ready');
    const inspect = h.queues.get('enrollment');
    for (const id of during)
      expect(await liveJob(inspect, 'enrollment', { lead_id: id })).toBeUndefined();

    relayQueues = new QueueSet({ redisUrl: redis.url, prefix: h.prefix });
    // The playbook worker's relay (the consumer of the enrollment queue).
    relay = new OutboxRelay({
      pool: h.pool,
      queues: relayQueues,
      topics: outboxTopicsRelayedBy('playbook-worker'),
      intervalMs: 200,
      backoffBaseSeconds: 1,
    });
    relay.start();
    // The relay waits out the rows' grace period (10 s) before it re-sends them.
    const jobs = await waitFor(
      async () => {
        const found = await Promise.all(
          during.map((id) => liveJob(inspect, 'enrollment', { lead_id: id })),
        );
        return found.every((job) => job !== undefined) ? found : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(jobs.map((job) => job?.data)).toEqual(during.map((id) => ({ lead_id: id })));
  }, 60_000);
});
