import { randomBytes } from 'node:crypto';
import { createPool, type Pool } from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { Queue, Worker } from 'bullmq';
import { createWorkerRedis } from './connection.js';
import { OutboxRelay, oldestOpenOutboxAgeSeconds } from './outbox-relay.js';
import { jobOptions, liveJob, OUTBOX_TOPICS, outboxTopicsRelayedBy, QueueSet } from './queues.js';

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

beforeEach(async () => {
  prefix = `test-${randomBytes(4).toString('hex')}`;
  queues = new QueueSet({ redisUrl: REDIS_URL, prefix });
  inspect = new Queue('enrollment', { connection: queues.redis, prefix });
  await inspect.waitUntilReady();
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

/** The enrollment relay, as the playbook worker runs it. */
const ENROLLMENT = { topics: ['enrollment'] } as const;

/** The state of the live job of `leadId`'s enrollment ('unknown': none). */
async function liveState(leadId: string): Promise<string> {
  const job = await liveJob(inspect, 'enrollment', { lead_id: leadId });
  return job ? await job.getState() : 'unknown';
}

/** Adds the enrollment job of `leadId` as the producers do. */
async function addEnrollment(leadId: string, delayMs = 0): Promise<string> {
  const payload = { lead_id: leadId };
  const options = jobOptions('enrollment', payload, delayMs);
  await inspect.add('enrollment', payload, options);
  return options.jobId;
}

/** relay_count and seconds until next_relay_at of the row of `leadId`. */
async function rowOf(leadId: string): Promise<{ relay_count: number; wait: number }> {
  const { rows } = await pool.query<{ relay_count: number; wait: number }>(
    `SELECT relay_count, EXTRACT(EPOCH FROM next_relay_at - now())::float8 AS wait
       FROM outbox WHERE payload->>'lead_id' = $1`,
    [leadId],
  );
  if (!rows[0]) throw new Error(`no outbox row for ${leadId}`);
  return rows[0];
}

async function insertDue(leadIds: string[]): Promise<void> {
  await pool.query(
    `INSERT INTO outbox (topic, payload, next_relay_at)
     SELECT 'enrollment', jsonb_build_object('lead_id', id), now() - interval '1 second'
       FROM unnest($1::text[]) AS id`,
    [leadIds],
  );
}

describe('OutboxRelay', () => {
  it('enqueues due open rows under their work keys, and backs off', async () => {
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
    const relay = new OutboxRelay({ pool, queues, ...ENROLLMENT });
    expect(await relay.relayOnce()).toEqual({ sent: 2, pending: 0 });
    const ids = (await inspect.getJobs(['waiting'])).map((j) => j.deduplicationId).sort();
    expect(ids).toEqual(['enroll-lead_a', 'enroll-lead_b']);
    // Relayed rows wait for their backoff before the next round.
    expect(await relay.relayOnce()).toEqual({ sent: 0, pending: 0 });
    const row = await rowOf('lead_a');
    expect(row.relay_count).toBe(1);
    expect(row.wait).toBeGreaterThan(5);
  });

  it('does not send again a row whose job Redis still holds waiting or delayed, and backs it off', async () => {
    // The fast path enqueued both; their consumer is behind (a backlog).
    const waiting = await addEnrollment('lead_waiting');
    const delayed = await addEnrollment('lead_delayed', 60_000);
    await insertDue(['lead_waiting', 'lead_delayed', 'lead_lost']);
    const relay = new OutboxRelay({ pool, queues, ...ENROLLMENT });
    // Only the job Redis does not hold is added.
    expect(await relay.relayOnce()).toEqual({ sent: 1, pending: 2 });
    expect(await liveState('lead_lost')).toBe('waiting');
    expect(await liveState('lead_waiting')).toBe('waiting');
    expect(await liveState('lead_delayed')).toBe('delayed');
    // The held jobs are the ones the fast path added, and no second job was made.
    expect((await liveJob(inspect, 'enrollment', { lead_id: 'lead_waiting' }))?.id).toBe(waiting);
    expect((await liveJob(inspect, 'enrollment', { lead_id: 'lead_delayed' }))?.id).toBe(delayed);
    expect(await inspect.getJobCountByTypes('waiting', 'delayed')).toBe(3);
    // The rows are claimed all the same: they are looked at again later, not every round.
    for (const leadId of ['lead_waiting', 'lead_delayed']) {
      const row = await rowOf(leadId);
      expect(row.relay_count).toBe(1);
      expect(row.wait).toBeGreaterThan(5);
    }
  });

  it('does not send again a row whose job is running (a consumer holding it back)', async () => {
    await insertDue(['lead_held']);
    const held = await addEnrollment('lead_held');
    let release = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connection = createWorkerRedis(REDIS_URL);
    const worker = new Worker('enrollment', () => holding, { connection, prefix });
    try {
      await waitFor(async () =>
        (await inspect.getJobState(held)) === 'active' ? true : undefined,
      );
      const relay = new OutboxRelay({ pool, queues, ...ENROLLMENT });
      expect(await relay.relayOnce()).toEqual({ sent: 0, pending: 1 });
      expect((await liveJob(inspect, 'enrollment', { lead_id: 'lead_held' }))?.id).toBe(held);
      expect(await inspect.getJobCountByTypes('waiting', 'delayed')).toBe(0);
    } finally {
      release();
      await worker.close();
      connection.disconnect();
    }
  });

  it('moves a row further out at each claim: base · 2^n, capped', async () => {
    await queues.enqueue('enrollment', { lead_id: 'lead_slow' });
    await insertDue(['lead_slow']);
    const relay = new OutboxRelay({
      pool,
      queues,
      ...ENROLLMENT,
      backoffBaseSeconds: 10,
      backoffMaxSeconds: 300,
    });
    const waits: number[] = [];
    for (let claim = 0; claim < 4; claim++) {
      expect(await relay.relayOnce()).toEqual({ sent: 0, pending: 1 });
      waits.push(Math.round((await rowOf('lead_slow')).wait));
      await pool.query(`UPDATE outbox SET next_relay_at = now() - interval '1 second'`);
    }
    expect(waits).toEqual([10, 20, 40, 80]);
    await pool.query('UPDATE outbox SET relay_count = 30');
    await relay.relayOnce();
    expect(Math.round((await rowOf('lead_slow')).wait)).toBe(300);
  });

  // A finished job does not hold its work key, whether it failed or completed.
  it.each([
    {
      state: 'failed',
      // The consumer threw (PostgreSQL away): the job is kept as failed.
      consume: async () => {
        throw new Error('PostgreSQL is away');
      },
    },
    {
      state: 'completed',
      // A consumer that finished without closing the row (e.g. it held the lead back).
      consume: async () => {},
    },
  ])(
    'sends again a row whose job Redis keeps as $state while the row is still open',
    async ({ state, consume }) => {
      const leadId = `lead_${state}`;
      await insertDue([leadId]);
      const job = await addEnrollment(leadId);
      const connection = createWorkerRedis(REDIS_URL);
      const worker = new Worker('enrollment', consume, { connection, prefix });
      try {
        await waitFor(async () => ((await inspect.getJobState(job)) === state ? true : undefined));
      } finally {
        await worker.close();
        connection.disconnect();
      }
      const relay = new OutboxRelay({ pool, queues, ...ENROLLMENT });
      expect(await relay.relayOnce()).toEqual({ sent: 1, pending: 0 });
      expect(await liveState(leadId)).toBe('waiting');
    },
  );

  it('relays only its own topics: another process relays the rest', async () => {
    await insertDue(['lead_e']);
    await pool.query(
      `INSERT INTO outbox (topic, payload, next_relay_at)
       VALUES ('activity', '{"activity_id":"act_1"}', now() - interval '1 second')`,
    );
    const activities = new Queue('activity', { connection: queues.redis, prefix });
    try {
      const enrollmentRelay = new OutboxRelay({ pool, queues, ...ENROLLMENT });
      expect(await enrollmentRelay.relayOnce()).toEqual({ sent: 1, pending: 0 });
      expect(await liveJob(activities, 'activity', { activity_id: 'act_1' })).toBeUndefined();
      const { rows } = await pool.query<{ relay_count: number }>(
        `SELECT relay_count FROM outbox WHERE topic = 'activity'`,
      );
      expect(rows[0]?.relay_count).toBe(0);

      const activityRelay = new OutboxRelay({ pool, queues, topics: ['activity'] });
      expect(await activityRelay.relayOnce()).toEqual({ sent: 1, pending: 0 });
      expect(
        await (await liveJob(activities, 'activity', { activity_id: 'act_1' }))?.getState(),
      ).toBe('waiting');
    } finally {
      await activities.obliterate({ force: true });
      await activities.close();
    }
  });

  it('never claims the same row in two concurrent relays', async () => {
    const leadIds = Array.from({ length: 300 }, (_, i) => `lead_${i}`);
    await insertDue(leadIds);
    const relays = [0, 1, 2].map(
      () => new OutboxRelay({ pool, queues, ...ENROLLMENT, batchSize: 50 }),
    );
    let total = 0;
    for (let round = 0; round < 10; round++) {
      const rounds = await Promise.all(relays.map((r) => r.relayOnce()));
      total += rounds.reduce((sum, r) => sum + r.sent + r.pending, 0);
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
    const relay = new OutboxRelay({
      pool,
      queues: deadQueues,
      ...ENROLLMENT,
      onError: (e) => errors.push(e),
    });
    try {
      expect(await relay.relayOnce()).toEqual({ sent: 0, pending: 0 });
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

describe('OUTBOX_TOPICS', () => {
  /** What the SQL functions of the schema match: one array per match (its groups). */
  async function functionSourceMatches(pattern: string): Promise<string[][]> {
    const { rows } = await pool.query<{ m: string[] }>(
      `SELECT m FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace AND n.nspname = 'public'
         CROSS JOIN LATERAL regexp_matches(p.prosrc, $1, 'gi') AS m`,
      [pattern],
    );
    return rows.map((row) => row.m);
  }

  it('names a relaying process for every topic the database writes to the outbox', async () => {
    // Every outbox row is written by a SQL function (intake_accept*, activity_record),
    // each naming its topic as a literal: none escapes this check.
    const inserts = await functionSourceMatches('INSERT INTO outbox\\M');
    const topics = await functionSourceMatches(
      "INSERT INTO outbox\\s*\\(topic, payload(?:, created_at)?\\)\\s*VALUES\\s*\\('([a-z-]+)'",
    );
    expect(inserts.length).toBeGreaterThan(0);
    expect(topics).toHaveLength(inserts.length);
    expect([...new Set(topics.map((m) => m[0]))].sort()).toEqual(Object.keys(OUTBOX_TOPICS).sort());
    expect(outboxTopicsRelayedBy('playbook-worker')).toEqual(['enrollment']);
    expect(outboxTopicsRelayedBy('webhook-worker')).toEqual(['activity']);
  });
});
