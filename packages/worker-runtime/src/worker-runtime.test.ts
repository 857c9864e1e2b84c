import { Writable } from 'node:stream';
import { loadConfig } from '@leadhook/config';
import { createPool, createPrisma, type Pool } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';
import {
  overTheCap,
  statusesIn,
  trickleBody,
  trickleHeaders,
} from '@leadhook/observability/testing';
import { QueueSet } from '@leadhook/queue';
import {
  aLeadOwner,
  closedPort,
  createTestDatabase,
  TEST_REDIS_URL,
  type TestDatabase,
  waitFor,
  workerEnv,
} from '@leadhook/testkit';
import request from 'supertest';
import { createIdempotencyKey, createOutboxRow } from './testing/index.js';
import {
  createWorkerRuntime,
  drainTimeoutMs,
  type WorkerComponent,
  type WorkerRuntime,
  type WorkerRuntimeOptions,
} from './worker-runtime.js';

const silent = createLogger({ service: 'test-worker', level: 'silent' });

let db: TestDatabase;
let pool: Pool;
const running: WorkerRuntime[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ databaseUrl: db.url, max: 2 });
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

/**
 * A test worker's runtime, not started: the settings `env` adds to the test
 * database and Redis, queues under a fresh `prefix`, a free port, a silent logger
 * and no relayed topics unless `options` says otherwise.
 */
function testRuntime(
  env: Record<string, string> = {},
  options: Partial<WorkerRuntimeOptions> = {},
) {
  const settings = workerEnv(db.url, env);
  const prefix = settings.QUEUE_PREFIX;
  const runtime = createWorkerRuntime({
    service: 'test-worker',
    config: loadConfig(settings),
    port: 0,
    relayTopics: [],
    logger: silent,
    ...options,
  });
  return { runtime, prefix };
}

async function start(
  env: Record<string, string> = {},
  retentionIntervalMs?: number,
  components: WorkerComponent[] = [],
) {
  const { runtime, prefix } = testRuntime(env, {
    components,
    ...(retentionIntervalMs === undefined ? {} : { retentionIntervalMs }),
  });
  running.push(runtime);
  const { port } = await runtime.start();
  return { runtime, prefix, port, http: request(`http://127.0.0.1:${port}`) };
}

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

// The worker's health server takes the HTTP_* settings as intake and the api do
// (docs/operations.md, "Settings"): small values here, generous margins on a
// loaded machine; Node's defaults would hold these clients for minutes.
describe("the health server's limits on slow and many clients", () => {
  const SLOW = {
    HTTP_HEADERS_TIMEOUT_MS: '500',
    HTTP_REQUEST_TIMEOUT_MS: '1500',
    HTTP_MAX_CONNECTIONS: '3',
  };

  it('closes a connection whose headers trickle in, soon after the headers timeout', async () => {
    const { port } = await start(SLOW);
    const ended = await trickleHeaders(port, { intervalMs: 50 });
    expect(ended.afterMs).toBeGreaterThanOrEqual(450);
    expect(ended.afterMs).toBeLessThan(500 + 1000 + 3000);
    expect(statusesIn(ended.received)).toEqual([408]);
  });

  it('cuts a body trickled after complete headers at the request timeout', async () => {
    const { port } = await start(SLOW);
    const ended = await trickleBody(port, { path: '/healthz', intervalMs: 50 });
    expect(ended.afterMs).toBeGreaterThanOrEqual(1450);
    expect(ended.afterMs).toBeLessThan(1500 + 1000 + 3000);
  });

  it('closes the connection over HTTP_MAX_CONNECTIONS, and keeps serving the others', async () => {
    const { port } = await start({
      ...SLOW,
      HTTP_HEADERS_TIMEOUT_MS: '10000',
      HTTP_REQUEST_TIMEOUT_MS: '10000',
    });
    const { first, extra, again } = await overTheCap(port, 3);
    expect(first).toEqual([200, 200, 200]);
    expect(extra).toBeUndefined();
    expect(again).toEqual([200, 200, 200]);
  });
});

describe('the drain deadline', () => {
  it.each([
    [10_000, 8000],
    [5000, 4000],
    [60_000, 58_000],
    [1000, 800],
  ])('SHUTDOWN_TIMEOUT_MS %i leaves the components %i ms', (shutdownTimeoutMs, drainMs) => {
    expect(drainTimeoutMs(shutdownTimeoutMs)).toBe(drainMs);
  });

  it('aborts the signal every component stops with at the deadline, before the process bound', async () => {
    const seen: Array<{ name: string; abortedAfterMs: number }> = [];
    let stopStarted = 0;
    const lingering = (name: string): WorkerComponent => ({
      name,
      start: () => {},
      // A component whose jobs outlast any drain: it stops when told time is up.
      stop: (drain) =>
        new Promise((resolve) => {
          stopStarted ||= Date.now();
          const done = () => {
            seen.push({ name, abortedAfterMs: Date.now() - stopStarted });
            resolve();
          };
          if (drain.aborted) done();
          else drain.addEventListener('abort', done, { once: true });
        }),
    });
    const { runtime } = await start({ SHUTDOWN_TIMEOUT_MS: '1500' }, undefined, [
      lingering('first'),
      lingering('second'),
    ]);
    const started = Date.now();
    await runtime.stop();
    const elapsed = Date.now() - started;
    // Reverse order, one deadline for both: the second found it passed already.
    expect(seen.map((s) => s.name)).toEqual(['second', 'first']);
    expect(seen[0]?.abortedAfterMs).toBeGreaterThanOrEqual(drainTimeoutMs(1500) - 20);
    expect(seen[1]?.abortedAfterMs).toBeLessThan(drainTimeoutMs(1500) + 100);
    // The rest of the stop fits in the margin: exit 0, not the process's own timer.
    expect(elapsed).toBeLessThan(1500);
  });
});

describe('a stop while the runtime is starting', () => {
  it('waits for the component being started, stops it, and starts no other', async () => {
    const events: string[] = [];
    let finishStart = () => {};
    const slow: WorkerComponent = {
      name: 'slow',
      // Still connecting when the stop comes.
      start: () =>
        new Promise<void>((resolve) => {
          events.push('slow started');
          finishStart = () => {
            events.push('slow ready');
            resolve();
          };
        }),
      stop: async () => {
        events.push('slow stopped');
      },
    };
    const next: WorkerComponent = {
      name: 'next',
      start: () => {
        events.push('next started');
      },
      stop: async () => {
        events.push('next stopped');
      },
    };
    const { runtime } = testRuntime({}, { components: [slow, next] });
    const starting = runtime.start();
    await waitFor(() => events.includes('slow started'));
    const stopping = runtime.stop();
    finishStart();
    await expect(starting).rejects.toThrow('stopped while starting');
    await stopping;
    expect(events).toEqual(['slow started', 'slow ready', 'slow stopped']);
  });
});

describe('worker runtime', () => {
  it('runs the retention job on its timer and counts what it removed', async () => {
    const prisma = createPrisma({ databaseUrl: db.url, poolMax: 1 });
    const owner = await aLeadOwner(prisma).finally(() => prisma.$disconnect());
    await createIdempotencyKey(pool, owner, 30);
    await createIdempotencyKey(pool, owner, 1);

    const { http } = await start({}, 100);

    // Once the round has finished: its batches are counted as they go, the
    // last run when all kinds are done.
    const text = await waitFor(async () => {
      const res = await http.get('/metrics');
      const removed = sample(res.text, 'leadhook_retention_removed_total', {
        kind: 'idempotency_keys',
      });
      const finished = sample(res.text, 'leadhook_retention_last_run_timestamp_seconds');
      return removed === 1 && (finished ?? 0) > 0 ? res.text : undefined;
    });
    expect(sample(text, 'leadhook_retention_removed_total', { kind: 'attempt_bodies' })).toBe(0);
    expect(sample(text, 'leadhook_retention_last_run_timestamp_seconds')).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    expect(sample(text, 'leadhook_retention_errors_total')).toBe(0);
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM idempotency_keys',
    );
    expect(rows[0]?.n).toBe(1);
    await pool.query('TRUNCATE idempotency_keys');
  });

  it('runs the partition job: drops the outbox days past OUTBOX_RETENTION, and says which it keeps for their open rows', async () => {
    // Ten and nine days old, one of them with a row still open.
    const closed = await createOutboxRow(pool, 24 * 10, 24 * 10 - 1);
    const open = await createOutboxRow(pool, 24 * 9, null);
    const { rows: days } = await pool.query<{ id: string; part: string }>(
      'SELECT id::text AS id, tableoid::regclass::text AS part FROM outbox',
    );
    const dayOf = (id: string) => days.find((d) => d.id === id)?.part;
    const lines: { msg: string; partition?: string; open_rows?: number }[] = [];
    const logger = createLogger({
      service: 'test-worker',
      level: 'info',
      destination: new Writable({
        write(chunk, _encoding, done) {
          for (const text of String(chunk).split('\n')) {
            if (text.trim() !== '') lines.push(JSON.parse(text));
          }
          done();
        },
      }),
    });
    const { runtime } = testRuntime(
      { OUTBOX_RETENTION: '7d' },
      { logger, partitionsFirstDelayMs: 10 },
    );
    running.push(runtime);
    const { port } = await runtime.start();
    const http = request(`http://127.0.0.1:${port}`);

    const text = await waitFor(async () => {
      const res = await http.get('/metrics').expect(200);
      return sample(res.text, 'leadhook_outbox_partitions_held') === 1 ? res.text : undefined;
    });
    expect(sample(text, 'leadhook_partition_errors_total')).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'outbox partition past OUTBOX_RETENTION kept: rows of it are still open (a consumer is behind)',
        partition: dayOf(open),
        open_rows: 1,
      }),
    );
    const dropped = lines.find((l) => l.msg === 'partitions round') as
      | { dropped?: string[] }
      | undefined;
    expect(dropped?.dropped).toContain(dayOf(closed));
    const { rows } = await pool.query<{ id: string }>('SELECT id::text AS id FROM outbox');
    expect(rows.map((r) => r.id)).toEqual([open]);
    await pool.query('TRUNCATE outbox');
  });

  it('exports the depth of every queue by state, read at scrape', async () => {
    const { http, prefix } = await start();
    const producer = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
    try {
      await waitFor(async () => (producer.redis.status === 'ready' ? true : undefined));
      await producer.enqueue('enrollment', { lead_id: 'lead_a' });
      await producer.enqueue('enrollment', { lead_id: 'lead_b' });
      await producer.enqueue('delivery', { delivery_id: 'del_a', attempt: 1 }, 60_000);

      // The runtime's own connection may still be coming up (NaN until then).
      const text = await waitFor(async () => {
        const res = await http.get('/metrics').expect(200);
        const waiting = sample(res.text, 'leadhook_queue_jobs', {
          queue: 'enrollment',
          state: 'waiting',
        });
        return Number.isNaN(waiting) ? undefined : res.text;
      });
      expect(sample(text, 'leadhook_queue_jobs', { queue: 'enrollment', state: 'waiting' })).toBe(
        2,
      );
      expect(sample(text, 'leadhook_queue_jobs', { queue: 'delivery', state: 'delayed' })).toBe(1);
      expect(sample(text, 'leadhook_queue_jobs', { queue: 'delivery', state: 'waiting' })).toBe(0);
      for (const queue of ['enrollment', 'activity', 'playbook-step', 'delivery']) {
        for (const state of ['waiting', 'delayed', 'active', 'failed']) {
          expect(sample(text, 'leadhook_queue_jobs', { queue, state })).not.toBeUndefined();
        }
      }
    } finally {
      for (const topic of ['enrollment', 'delivery'] as const) {
        await producer.get(topic).obliterate({ force: true });
      }
      await producer.close();
    }
  });

  it('relays at most OUTBOX_RELAY_BATCH_SIZE rows per topic and round', async () => {
    await pool.query(
      `INSERT INTO outbox (topic, payload, next_relay_at)
       SELECT 'enrollment', jsonb_build_object('lead_id', id), now() - interval '1 second'
         FROM unnest(ARRAY['lead_a', 'lead_b', 'lead_c']) AS id`,
    );
    const { runtime } = testRuntime(
      { OUTBOX_RELAY_BATCH_SIZE: '2' },
      // One round in this test: the next is a minute away.
      { relayTopics: ['enrollment'], relayIntervalMs: 60_000 },
    );
    running.push(runtime);
    const { port } = await runtime.start();
    const http = request(`http://127.0.0.1:${port}`);
    try {
      await waitFor(async () => {
        const text = (await http.get('/metrics').expect(200)).text;
        return (sample(text, 'leadhook_outbox_relayed_total') ?? 0) > 0 ? true : undefined;
      });
      const { rows } = await pool.query<{ relayed: number }>(
        'SELECT count(*)::int AS relayed FROM outbox WHERE relay_count > 0',
      );
      expect(rows[0]?.relayed).toBe(2);
    } finally {
      await runtime.queues.get('enrollment').obliterate({ force: true });
      await pool.query('TRUNCATE outbox');
    }
  });

  it('reports the age of the oldest open outbox row, ignoring closed ones', async () => {
    const { http } = await start();
    const none = (await http.get('/metrics').expect(200)).text;
    expect(sample(none, 'leadhook_outbox_oldest_open_seconds')).toBe(0);

    await createOutboxRow(pool, 5, 4); // closed: not lag
    await createOutboxRow(pool, 2, null); // open for two hours
    await createOutboxRow(pool, 1, null);
    const text = (await http.get('/metrics').expect(200)).text;
    const age = sample(text, 'leadhook_outbox_oldest_open_seconds') ?? Number.NaN;
    expect(age).toBeGreaterThanOrEqual(7200);
    expect(age).toBeLessThan(7200 + 600);
    await pool.query('TRUNCATE outbox');
  });

  it('reads NaN, not a stale number, when Redis is unreachable', async () => {
    const { http } = await start({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    const text = (await http.get('/metrics').expect(200)).text;
    expect(
      sample(text, 'leadhook_queue_jobs', { queue: 'enrollment', state: 'waiting' }),
    ).toBeNaN();
    expect(sample(text, 'leadhook_outbox_oldest_open_seconds')).toBe(0);
  });
});
