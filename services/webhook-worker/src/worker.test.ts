import { loadConfig } from '@leadhook/config';
import { createLogger } from '@leadhook/observability';
import { jobsOf } from '@leadhook/queue';
import {
  closedPort,
  freePort,
  useTestDatabase,
  useTestWorkers,
  waitFor,
  withOutboxRows,
} from '@leadhook/testkit';
import request from 'supertest';
import type { WebhookHandle } from './webhook.component.js';
import { createWorker } from './worker.js';

// The runtime itself (relay, stop) is exercised in services/playbook-worker; this
// checks the webhook worker's own wiring, its relay's topic included.
const silent = createLogger({ service: 'webhook-worker', level: 'silent' });

const db = useTestDatabase();
const workers = useTestWorkers(db, (settings, onStarted: (handle: WebhookHandle) => void) =>
  createWorker({
    config: loadConfig(settings),
    port: 0,
    logger: silent,
    relayIntervalMs: 50,
    webhooks: { onStarted },
  }),
);

/** A worker on the test database and Redis (`env` on top), and supertest on its port. */
async function startWorker(env: Record<string, string> = {}) {
  const started = await workers.start(env);
  return { ...started, http: request(`http://127.0.0.1:${started.port}`) };
}

describe('webhook-worker', () => {
  it('listens on WEBHOOK_WORKER_PORT by default', async () => {
    const free = await freePort();
    const config = loadConfig({ WEBHOOK_WORKER_PORT: String(free), DATABASE_URL: db.url });
    const worker = createWorker({ config, logger: silent });
    workers.stopAfterTest(worker);
    expect(await worker.start()).toEqual({ port: free });
    expect((await request(`http://127.0.0.1:${free}`).get('/healthz')).status).toBe(200);
  });

  it('answers /healthz, /readyz and /metrics under its own service name', async () => {
    const { http } = await startWorker();
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

  it('relays its activity rows and leaves enrollment rows to the playbook worker', async () => {
    const { prefix } = await startWorker();
    await withOutboxRows(db.url, prefix, 0, async ({ pool, queues, leadId, activityId }) => {
      const jobOf = async () =>
        (await jobsOf(queues.get('activity'), 'activity', { activity_id: activityId }))[0];
      let job = await jobOf();
      for (let i = 0; !job && i < 200; i++) {
        await new Promise((r) => setTimeout(r, 50));
        job = await jobOf();
      }
      expect(job?.data).toEqual({ activity_id: activityId });
      // Several relay rounds (every 50 ms) pass the enrollment row by.
      await new Promise((r) => setTimeout(r, 300));
      const { rows } = await pool.query<{ relay_count: number; done: boolean }>(
        `SELECT relay_count, done_at IS NOT NULL AS done FROM outbox WHERE topic = 'enrollment'`,
      );
      expect(rows).toEqual([{ relay_count: 0, done: false }]);
      expect(await jobsOf(queues.get('enrollment'), 'enrollment', { lead_id: leadId })).toEqual([]);
    });
  });

  it('sizes its pool and send slots from the settings', async () => {
    const { handle } = await startWorker({
      WEBHOOK_WORKER_DATABASE_POOL_SIZE: '3',
      WEBHOOK_FANOUT_CONCURRENCY: '5',
    });
    const started = await handle();
    expect(started.deps.pool.options.max).toBe(3);
    // Each fan-out job may hold 4 claimed deliveries (fanout.job.ts).
    expect(started.deps.slots?.size).toBe(20);
  });

  it('answers /readyz 503 when Redis is unreachable, and stays alive', async () => {
    const { http } = await startWorker({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    const ready = await http.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'unavailable' });
    expect((await http.get('/healthz')).status).toBe(200);
  });
});
