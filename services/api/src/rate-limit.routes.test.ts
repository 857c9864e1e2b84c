import { createPrisma } from '@leadhook/db';
import { createLogger, createMetrics } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { closedPort, useHarness } from '@leadhook/testkit';
import supertest from 'supertest';
import { createApp } from './app.js';
import { PUBLIC_BASE_URL, startHarness } from './testing/harness.js';

const h = useHarness(() => startHarness());

/**
 * Sends `count` requests at once and counts the answers by status. At once, so
 * that they share a second however slow the machine: with a limit of 1 a second
 * and a burst of 1 more, 10 requests would have to be spread over 9 seconds to
 * all get through. Not more at once: each looks its key up on the harness's
 * pool of 4 connections, and a loaded machine would time some of them out (503).
 */
async function burst(send: () => supertest.Test, count = 10): Promise<Map<number, number>> {
  const answers = await Promise.all(Array.from({ length: count }, () => send()));
  for (const res of answers.filter((r) => r.status === 429)) {
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body).toEqual({
      error: { code: 'rate_limited', message: expect.stringMatching(/retry after/), details: [] },
    });
  }
  const counts = new Map<number, number>();
  for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
  return counts;
}

describe('API rate limits', () => {
  it('limits each API key to its rate plus a burst, then answers 429 with Retry-After', async () => {
    const a = await h.newAccount();
    const b = await h.newAccount();
    const limited = h.withOptions({ rateLimitPerKey: 1 });
    const counts = await burst(() => limited.as(a.api_key).get('/api/v1/account'));
    expect(counts.get(200)).toBeGreaterThanOrEqual(2);
    expect(counts.get(429)).toBeGreaterThanOrEqual(1);
    expect([...counts.keys()].sort()).toEqual([200, 429]);
    // Another key has a counter of its own.
    expect((await limited.as(b.api_key).get('/api/v1/account')).status).toBe(200);
  });

  it('limits each client address, wrong keys included, before looking a key up', async () => {
    const limited = h.withOptions({ rateLimitPerAddress: 1 });
    const counts = await burst(() => limited.as('lh_not-a-key').get('/api/v1/account'));
    expect(counts.get(401)).toBeGreaterThanOrEqual(2);
    expect(counts.get(429)).toBeGreaterThanOrEqual(1);
  });

  it('takes the client address from X-Forwarded-For only when proxies are trusted', async () => {
    const account = await h.newAccount();
    const from = (trustProxy: boolean, ip: string) => () =>
      h
        .withOptions({ rateLimitPerAddress: 1, trustProxy })
        .as(account.api_key)
        .get('/api/v1/account')
        .set('x-forwarded-for', ip);
    expect((await burst(from(true, '203.0.113.7'))).get(429)).toBeGreaterThanOrEqual(1);
    expect((await from(true, '203.0.113.8')()).status).toBe(200);
    // Untrusted, the header is ignored: ten addresses are one, the socket's.
    let n = 0;
    const untrusted = await burst(() => from(false, `203.0.113.${++n + 100}`)());
    expect(untrusted.get(429)).toBeGreaterThanOrEqual(1);
  });

  it('lets requests through when Redis is unreachable (fail open), and says so at warn', async () => {
    const account = await h.newAccount();
    const noRedis = new QueueSet({
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      prefix: 'test-api-no-redis',
    });
    const lines: string[] = [];
    const logger = createLogger({
      service: 'api-test',
      level: 'warn',
      destination: { write: (line: string) => lines.push(line) },
    });
    try {
      const app = createApp({
        prisma: h.prisma,
        pool: h.pool,
        logger,
        metrics: createMetrics('api-test'),
        queues: noRedis,
        options: { publicBaseUrl: PUBLIC_BASE_URL, rateLimitPerKey: 1, rateLimitPerAddress: 1 },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await supertest(app)
          .get('/api/v1/account')
          .set('authorization', `Bearer ${account.api_key}`);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      expect(lines.join('')).toContain('rate limiter unavailable; letting the request through');
    } finally {
      await noRedis.close();
    }
  });

  it('remembers a key that matched nothing, so repeating it costs no database round trip', async () => {
    let lookups = 0;
    const apiKeys = h.prisma.apiKey;
    const counting = new Proxy(h.prisma, {
      get(target, property, receiver) {
        if (property !== 'apiKey') return Reflect.get(target, property, receiver);
        return new Proxy(apiKeys, {
          get(keys, name, keysReceiver) {
            if (name !== 'findUnique') return Reflect.get(keys, name, keysReceiver);
            return (args: Parameters<typeof apiKeys.findUnique>[0]) => {
              lookups += 1;
              return apiKeys.findUnique(args);
            };
          },
        });
      },
    });
    const app = createApp({
      prisma: counting,
      pool: h.pool,
      logger: createLogger({ service: 'api-test', level: 'silent' }),
      metrics: createMetrics('api-test'),
      queues: h.queues,
      options: { publicBaseUrl: PUBLIC_BASE_URL, rateLimitPerKey: 0, rateLimitPerAddress: 0 },
    });
    const get = (key: string) =>
      supertest(app).get('/api/v1/account').set('authorization', `Bearer ${key}`);
    for (let i = 0; i < 5; i++) expect((await get('lh_wrong-key')).status).toBe(401);
    expect(lookups).toBe(1);

    // A real key is looked up every time, so a revocation takes effect at once.
    const account = await h.newAccount();
    expect((await get(account.api_key)).status).toBe(200);
    await h.as(account.api_key).post('/api/v1/account/api_keys/rotate').expect(200);
    expect((await get(account.api_key)).status).toBe(401);
    expect(lookups).toBe(3);
  });

  it('revoking a named key takes effect at once on another api process too', async () => {
    const account = await h.newAccount();
    const created = await h
      .as(account.api_key)
      .post('/api/v1/account/api_keys')
      .send({ name: 'Zapier' })
      .expect(201);
    // A second process: another app on the same database.
    const other = createApp({
      prisma: h.prisma,
      pool: h.pool,
      logger: createLogger({ service: 'api-test', level: 'silent' }),
      metrics: createMetrics('api-test'),
      queues: h.queues,
      options: { publicBaseUrl: PUBLIC_BASE_URL, rateLimitPerKey: 0, rateLimitPerAddress: 0 },
    });
    const get = () =>
      supertest(other)
        .get('/api/v1/account')
        .set('authorization', `Bearer ${created.body.api_key}`);
    expect((await get()).status).toBe(200);
    await h.as(account.api_key).delete(`/api/v1/account/api_keys/${created.body.id}`).expect(204);
    expect((await get()).status).toBe(401);
  });

  it('answers 503 with Retry-After in seconds when the database cannot be reached', async () => {
    const down = createPrisma({
      databaseUrl: `postgresql://postgres@127.0.0.1:${await closedPort()}/leadhook`,
      poolMax: 1,
    });
    try {
      const app = createApp({
        prisma: down,
        pool: h.pool,
        logger: createLogger({ service: 'api-test', level: 'silent' }),
        metrics: createMetrics('api-test'),
        queues: h.queues,
        options: { publicBaseUrl: PUBLIC_BASE_URL, rateLimitPerKey: 0, rateLimitPerAddress: 0 },
      });
      const res = await supertest(app)
        .get('/api/v1/account')
        .set('authorization', 'Bearer lh_any-key-at-all');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('service_unavailable');
      expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    } finally {
      await down.$disconnect();
    }
  });
});
