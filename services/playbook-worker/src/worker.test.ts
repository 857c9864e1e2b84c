import { randomBytes } from 'node:crypto';
import { loadConfig } from '@leadhook/config';
import { createPrisma } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';
import { jobsOf } from '@leadhook/queue';
import {
  aLead,
  aLeadOwner,
  closedPort,
  useTestDatabase,
  useTestWorkers,
  waitFor,
  withOutboxRows,
} from '@leadhook/testkit';
import pg from 'pg';
import request from 'supertest';
import type { PlaybookHandle } from './playbook.component.js';
import { createWorker } from './worker.js';

const silent = createLogger({ service: 'playbook-worker', level: 'silent' });

const db = useTestDatabase();
const workers = useTestWorkers(db, (settings, onStarted: (handle: PlaybookHandle) => void) =>
  createWorker({
    config: loadConfig(settings),
    port: 0,
    logger: silent,
    relayIntervalMs: 50,
    playbook: { onStarted },
  }),
);

/** A worker on the test database and Redis (`env` on top), and supertest on its port. */
async function startWorker(env: Record<string, string> = {}) {
  const started = await workers.start(env);
  return { ...started, http: request(`http://127.0.0.1:${started.port}`) };
}

describe('playbook-worker', () => {
  it('answers /healthz, /readyz (PostgreSQL and Redis up, the provider credentials not refused) and /metrics', async () => {
    const { http } = await startWorker();
    const health = await http.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });

    const ready = await waitFor(async () => {
      const res = await http.get('/readyz');
      return res.status === 200 ? res : undefined;
    });
    expect(ready.body).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok', provider_credentials: 'ok' },
    });

    const metrics = await http.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(
      /^leadhook_outbox_oldest_open_seconds\{service="playbook-worker"\} 0$/m,
    );
    expect(metrics.text).toContain('leadhook_http_requests_total');
  });

  it('answers /readyz 503 naming Redis when Redis is unreachable', async () => {
    const { http } = await startWorker({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    expect((await http.get('/healthz')).status).toBe(200);
    const ready = await http.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'unavailable',
      checks: { postgres: 'ok', redis: 'unavailable', provider_credentials: 'ok' },
    });
  });

  it('relays its enrollment rows and leaves activity rows to the webhook worker', async () => {
    // Both due and 90 s old. The enrollment row names no lead: the consumer closes
    // it and enrolls nobody. The activity row is the webhook worker's (it consumes
    // that queue): this relay neither claims nor sends it, so it stays open, and
    // its age shows in the gauge every worker exports.
    const { http, prefix } = await startWorker();
    await withOutboxRows(db.url, prefix, 90, async ({ pool, queues, leadId, activityId }) => {
      const job = await waitFor(
        async () => (await jobsOf(queues.get('enrollment'), 'enrollment', { lead_id: leadId }))[0],
      );
      expect(job.data).toEqual({ lead_id: leadId });
      await waitFor(async () => {
        const { rows } = await pool.query(
          `SELECT 1 FROM outbox WHERE topic = 'enrollment' AND done_at IS NOT NULL`,
        );
        return rows.length === 1 ? true : undefined;
      });
      // Several relay rounds (every 50 ms) have passed the activity row by.
      await new Promise((r) => setTimeout(r, 300));
      const { rows } = await pool.query<{ relay_count: number; done: boolean }>(
        `SELECT relay_count, done_at IS NOT NULL AS done FROM outbox WHERE topic = 'activity'`,
      );
      expect(rows).toEqual([{ relay_count: 0, done: false }]);
      expect(await jobsOf(queues.get('activity'), 'activity', { activity_id: activityId })).toEqual(
        [],
      );

      const metrics = await http.get('/metrics');
      const age = /^leadhook_outbox_oldest_open_seconds\{[^}]*\} (\S+)$/m.exec(metrics.text);
      expect(Number(age?.[1])).toBeGreaterThanOrEqual(90);
      expect(metrics.text).toMatch(/^leadhook_outbox_relayed_total\{[^}]*\} 1$/m);
    });
  });

  it('exports how late the most overdue step is, read from PostgreSQL while no step can run', async () => {
    // Redis is away: no step job can be sent, so nothing moves the rows, and the
    // step lag histogram (observed when a step runs) would say nothing.
    const { http } = await startWorker({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    const oldestDue = async () => {
      const { text } = await http.get('/metrics');
      const line = /^leadhook_playbook_oldest_due_step_seconds\{[^}]*\} (\S+)$/m.exec(text);
      return Number(line?.[1]);
    };
    expect(await oldestDue()).toBe(0);

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const prisma = createPrisma({ databaseUrl: db.url, poolMax: 1 });
    try {
      const id = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;
      const owner = await aLeadOwner(prisma, { account: 'Gauge' });
      // Due 90 s ago; deferred to the contact window (due in an hour); finished.
      const plays = [
        { due: `now() - interval '90 seconds'`, status: 'active' },
        { due: `now() + interval '1 hour'`, status: 'active' },
        { due: `now() - interval '1 day'`, status: 'completed' },
      ];
      const overdue = id('enr');
      for (const [i, play] of plays.entries()) {
        const lead = await aLead(prisma, owner);
        await client.query(
          `INSERT INTO enrollments (id, lead_id, playbook_id, status, current_step, next_run_at)
           VALUES ($1, $2, $3, $4, 0, ${play.due})`,
          [i === 0 ? overdue : id('enr'), lead.id, owner.playbookId, play.status],
        );
      }
      const late = await oldestDue();
      expect(late).toBeGreaterThanOrEqual(90);
      expect(late).toBeLessThan(120);

      await client.query(`UPDATE enrollments SET status = 'completed' WHERE id = $1`, [overdue]);
      expect(await oldestDue()).toBe(0);
    } finally {
      await prisma.$disconnect();
      await client.end();
    }
  });

  it('sizes its pool from PLAYBOOK_WORKER_DATABASE_POOL_SIZE', async () => {
    const { handle } = await startWorker({ PLAYBOOK_WORKER_DATABASE_POOL_SIZE: '3' });
    const started = await handle();
    expect(started.deps.pool.options.max).toBe(3);
  });

  it('stops: the port is released and stop can be called again', async () => {
    const { worker, http } = await startWorker();
    expect((await http.get('/healthz')).status).toBe(200);
    await worker.stop();
    await worker.stop();
    await expect(http.get('/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});
