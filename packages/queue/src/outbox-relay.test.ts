import { randomBytes } from 'node:crypto';
import { createPool, type Pool } from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { Queue, Worker } from 'bullmq';
import { OutboxRelay, oldestOpenOutboxAgeSeconds } from './outbox-relay.js';
import { createWorkerRedis, QueueSet } from './queues.js';

/** Polls until `probe` gives a value. */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let db: TestDatabase;
let pool: Pool;
let prefix: string;
let queues: QueueSet;
let inspect: Queue;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ databaseUrl: db.url, max: 4 });
});

beforeEach(() => {
  prefix = `test-${randomBytes(4).toString('hex')}`;
  queues = new QueueSet({ redisUrl: REDIS_URL, prefix });
  inspect = new Queue('enrollment', { connection: queues.redis, prefix });
});

afterEach(async () => {
  await inspect.obliterate({ force: true });
  await inspect.close();
  await queues.close();
  await pool.query('DELETE FROM outbox');
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

async function insertDue(leadIds: string[]): Promise<void> {
  await pool.query(
    `INSERT INTO outbox (topic, payload, next_relay_at)
     SELECT 'enrollment', jsonb_build_object('lead_id', id), now() - interval '1 second'
       FROM unnest($1::text[]) AS id`,
    [leadIds],
  );
}

describe('OutboxRelay', () => {
  it('enqueues due open rows with their deterministic job ids, and backs off', async () => {
    await insertDue(['lead_a', 'lead_b']);
    // Not yet due: the writer's fast path gets its grace period.
    await pool.query(
      `INSERT INTO outbox (topic, payload) VALUES ('enrollment', '{"lead_id":"lead_c"}')`,
    );
    // Closed by its consumer: never relayed.
    await pool.query(
      `INSERT INTO outbox (topic, payload, next_relay_at, done_at)
       VALUES ('enrollment', '{"lead_id":"lead_d"}', now() - interval '1 minute', now())`,
    );
    const relay = new OutboxRelay({ pool, queues });
    expect(await relay.relayOnce()).toBe(2);
    const ids = (await inspect.getJobs(['waiting'])).map((j) => j.id).sort();
    expect(ids).toEqual(['enroll-lead_a', 'enroll-lead_b']);
    // Relayed rows wait for their backoff before the next round.
    expect(await relay.relayOnce()).toBe(0);
    const { rows } = await pool.query<{ relay_count: number; wait: number }>(
      `SELECT relay_count, EXTRACT(EPOCH FROM next_relay_at - now())::float8 AS wait
         FROM outbox WHERE payload->>'lead_id' = 'lead_a'`,
    );
    expect(rows[0]?.relay_count).toBe(1);
    expect(rows[0]?.wait).toBeGreaterThan(5);
  });

  it('sends again a row whose job failed: BullMQ would ignore the add while it keeps that job', async () => {
    await insertDue(['lead_failed']);
    // The consumer threw (PostgreSQL away): the job is kept as failed under its id.
    await inspect.add('enrollment', { lead_id: 'lead_failed' }, { jobId: 'enroll-lead_failed' });
    const connection = createWorkerRedis(REDIS_URL);
    const worker = new Worker(
      'enrollment',
      async () => {
        throw new Error('PostgreSQL is away');
      },
      { connection, prefix },
    );
    try {
      await waitFor(async () =>
        (await inspect.getJobState('enroll-lead_failed')) === 'failed' ? true : undefined,
      );
    } finally {
      await worker.close();
      connection.disconnect();
    }
    const relay = new OutboxRelay({ pool, queues });
    expect(await relay.relayOnce()).toBe(1);
    expect(await inspect.getJobState('enroll-lead_failed')).toBe('waiting');
  });

  it('never claims the same row in two concurrent relays', async () => {
    const leadIds = Array.from({ length: 300 }, (_, i) => `lead_${i}`);
    await insertDue(leadIds);
    const relays = [0, 1, 2].map(() => new OutboxRelay({ pool, queues, batchSize: 50 }));
    let total = 0;
    for (let round = 0; round < 10; round++) {
      const counts = await Promise.all(relays.map((r) => r.relayOnce()));
      total += counts.reduce((a, b) => a + b, 0);
    }
    expect(total).toBe(300);
    const { rows } = await pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM outbox WHERE relay_count <> 1',
    );
    expect(Number(rows[0]?.n)).toBe(0);
    expect(await inspect.getJobCountByTypes('waiting')).toBe(300);
  });

  it('keeps rows due (without growing their backoff) while Redis is unreachable', async () => {
    await insertDue(['lead_x']);
    const deadQueues = new QueueSet({ redisUrl: 'redis://127.0.0.1:1', prefix });
    const errors: unknown[] = [];
    const relay = new OutboxRelay({ pool, queues: deadQueues, onError: (e) => errors.push(e) });
    try {
      expect(await relay.relayOnce()).toBe(0);
    } finally {
      await deadQueues.close().catch(() => {});
    }
    expect(errors).toHaveLength(1);
    const { rows } = await pool.query<{ relay_count: number; wait: number }>(
      `SELECT relay_count, EXTRACT(EPOCH FROM next_relay_at - now())::float8 AS wait FROM outbox`,
    );
    expect(rows[0]?.relay_count).toBe(0);
    expect(rows[0]?.wait).toBeLessThanOrEqual(1.1);
    expect(await oldestOpenOutboxAgeSeconds(pool)).toBeGreaterThan(0);
  });
});
