import { useHarness, validLead } from '@leadhook/testkit';
import { Redis } from 'ioredis';
import request from 'supertest';
import { countRows, createHarness } from './testing/harness.js';

const h = useHarness(() => createHarness({ options: { defaultRateLimitPerSecond: 3 } }));

async function statuses(path: string, count: number): Promise<number[]> {
  const out: number[] = [];
  // Empty bodies: the limit counts requests, whatever they carry (422 here).
  for (let i = 0; i < count; i++) out.push((await request(h.app).post(path).send({})).status);
  return out;
}

/**
 * Sends `count` requests at once and counts the answers by status. At once, so
 * that they share a second however slow the machine: a limit of N a second with
 * a burst of N more lets 20 requests through only if they are spread over
 * (20 - 2N) / N seconds.
 */
async function burst(path: string, count = 20): Promise<Map<number, number>> {
  const answers = await Promise.all(
    Array.from({ length: count }, () => request(h.app).post(path).send({})),
  );
  for (const res of answers.filter((r) => r.status === 429)) {
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ field: null, code: 'rate_limited', message: expect.any(String) }],
    });
  }
  const counts = new Map<number, number>();
  for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
  return counts;
}

describe('per-source rate limit', () => {
  it("allows the source's rate plus a burst of as much again, then answers 429 with Retry-After", async () => {
    const source = await h.makeSource({ rateLimit: 2 });
    const counts = await burst(source.path);
    expect(counts.get(422)).toBeGreaterThanOrEqual(4);
    expect(counts.get(429)).toBeGreaterThanOrEqual(1);
    expect([...counts.keys()].sort()).toEqual([422, 429]);
    // A 429 stores nothing: only the answered requests left a submission.
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(0);
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(
      counts.get(422),
    );
  });

  it('limits each source on its own', async () => {
    const a = await h.makeSource({ rateLimit: 1 });
    const b = await h.makeSource({ rateLimit: 1 });
    expect((await burst(a.path)).get(429)).toBeGreaterThanOrEqual(1);
    expect(await statuses(b.path, 1)).toEqual([422]);
  });

  it('uses the process default when the source sets none', async () => {
    const source = await h.makeSource();
    const counts = await burst(source.path);
    expect(counts.get(422)).toBeGreaterThanOrEqual(6);
    expect(counts.get(429)).toBeGreaterThanOrEqual(1);
  });

  it('does not limit a source whose rate_limit is 0', async () => {
    const source = await h.makeSource({ rateLimit: 0 });
    const all = await statuses(source.path, 25);
    expect(all.every((s) => s === 422)).toBe(true);
  });

  it('lets leads through when Redis is unreachable', async () => {
    // A client that is not connected, as ioredis reports Redis being away (the
    // outage test kills a real Redis under the limiter too).
    const deadRedis = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false });
    try {
      const app = h.buildApp({ redis: deadRedis });
      const source = await h.makeSource({ rateLimit: 1 });
      const results: number[] = [];
      for (let i = 0; i < 4; i++)
        results.push((await request(app).post(source.path).send(validLead())).status);
      expect(results).toEqual([201, 201, 201, 201]);
    } finally {
      deadRedis.disconnect();
    }
  });
});
