import { randomBytes } from 'node:crypto';
import { loadConfig } from '@leadhook/config';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { createLogger } from '@leadhook/observability';
import type { WorkerRuntime } from '@leadhook/worker-runtime';
import { closedPort, freePort, waitFor } from '@leadhook/worker-runtime/testing';
import request from 'supertest';
import { createWorker } from './worker.js';

// The runtime itself (relay, stop) is exercised in services/playbook-worker; this
// checks the webhook worker's own wiring.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = createLogger({ service: 'webhook-worker', level: 'silent' });

let db: TestDatabase;
const running: WorkerRuntime[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await db.drop();
});

async function startWorker(redisUrl: string) {
  const config = loadConfig({
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `t${randomBytes(5).toString('hex')}`,
  });
  const worker = createWorker({ config, port: 0, logger: silent });
  running.push(worker);
  const { port } = await worker.start();
  return request(`http://127.0.0.1:${port}`);
}

describe('webhook-worker', () => {
  it('listens on WEBHOOK_WORKER_PORT by default', async () => {
    const free = await freePort();
    const config = loadConfig({ WEBHOOK_WORKER_PORT: String(free), DATABASE_URL: db.url });
    const worker = createWorker({ config, logger: silent });
    running.push(worker);
    expect(await worker.start()).toEqual({ port: free });
    expect((await request(`http://127.0.0.1:${free}`).get('/healthz')).status).toBe(200);
  });

  it('answers /healthz, /readyz and /metrics under its own service name', async () => {
    const http = await startWorker(REDIS_URL);
    expect((await http.get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await waitFor(async () => {
      const res = await http.get('/readyz');
      return res.status === 200 ? res : undefined;
    });
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'ok' });
    const metrics = await http.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(
      /^leadhook_outbox_oldest_open_seconds\{service="webhook-worker"\} 0$/m,
    );
  });

  it('answers /readyz 503 when Redis is unreachable, and stays alive', async () => {
    const http = await startWorker(`redis://127.0.0.1:${await closedPort()}`);
    const ready = await http.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'unavailable' });
    expect((await http.get('/healthz')).status).toBe(200);
  });
});
