import { createPool, isId, newId, type Pool } from '@leadhook/db';
import { rowsRead } from '@leadhook/db/testing';
import { jobsOf, liveJob, QueueSet } from '@leadhook/queue';
import { Queue } from 'bullmq';
import pg from 'pg';
import type { FanOutRow } from './fanout.queries.js';
import { reconcileOnce } from './reconciler.js';
import { forgetRedis, Harness, REDIS_URL, waitFor } from './testing/harness.js';

// The hot path's SQL functions (prisma/functions/webhook/) on
// their own, with no worker running: the lease, the queued flag that keeps a
// chain's waiting deliveries out of the reconciler's way, and the reconciler.

let h: Harness;
let pool: Pool;
let queues: QueueSet;
let inspect: Queue;
let prefix: string;

beforeAll(async () => {
  h = await Harness.create();
  pool = createPool({ databaseUrl: h.db.url, max: 4 });
  prefix = Harness.newPrefix();
  queues = new QueueSet({ redisUrl: REDIS_URL, prefix });
  inspect = new Queue('delivery', { connection: queues.redis, prefix });
  await waitFor(() => queues.redis.status === 'ready');
});
afterEach(async () => {
  // Disables the subscriptions and fails what is pending: no chain is left for the next test.
  await h.stopWorkers();
});
afterAll(async () => {
  await inspect.close();
  await queues.close();
  await forgetRedis(prefix);
  await pool.end();
  await h.close();
});

const deps = () => ({ pool, queues, now: () => new Date() });

/** An activity of the lead with its open outbox row, as the activity path writes it. */
const activity = (leadId: string, label: string, occurredAt?: Date) =>
  h.openActivity(leadId, label, occurredAt);

interface FanOut {
  result: string;
  deliveries: number;
  heads: { id: string; created: boolean }[];
}
async function fanOut(activityId: string): Promise<FanOut> {
  const { rows } = await pool.query<{ r: FanOut }>('SELECT webhook_fan_out($1, now(), 0) AS r', [
    activityId,
  ]);
  if (!rows[0]) throw new Error('no row');
  return rows[0].r;
}

/**
 * A subscription, a lead with 8 activities whose outbox rows are open, and a
 * database session of its own: no plan cached by the tests before it.
 */
async function openActivitiesAndASession() {
  await h.subscription({ url: 'http://127.0.0.1:9/hook' });
  const leadId = await h.lead();
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) ids.push(await activity(leadId, 'message_sent'));
  const client = new pg.Client({ connectionString: h.db.url });
  await client.connect();
  return { ids, client };
}

async function claim(deliveryId: string, attempt = 0, leaseMs = 60_000) {
  const { rows } = await pool.query<{ claim: string; delivery_id: string; due_at: Date | null }>(
    'SELECT claim, delivery_id, due_at FROM webhook_claim($1, $2, now(), $3)',
    [deliveryId, attempt, leaseMs],
  );
  return rows[0];
}

async function succeed(deliveryId: string, goOn: boolean) {
  const { rows } = await pool.query<{ outcome: string; claim: string | null; delivery_id: string }>(
    `SELECT outcome, claim, delivery_id FROM webhook_record_attempt(
       $1, 0, $2, now(), now(), true, 204, 3, NULL, '', NULL, 432000000, $3, 60000)`,
    [deliveryId, newId('attempt'), goOn],
  );
  return rows[0];
}

const row = (id: string) => h.prisma.delivery.findUniqueOrThrow({ where: { id } });

interface RecordedStep {
  item: number;
  outcome: string | null;
  claim: string | null;
  delivery_id: string | null;
  retry_at: Date | null;
  /** The whole webhook_step, as JSON. */
  step: Record<string, unknown>;
}

/**
 * webhook_claim's whole step for a delivery claimed some other way, once its
 * lease is given back: what a claim of it alone returns.
 */
async function claimAlone(deliveryId: string): Promise<Record<string, unknown> | undefined> {
  await pool.query('UPDATE deliveries SET claimed_until = NULL WHERE id = $1', [deliveryId]);
  const { rows } = await pool.query<{ step: Record<string, unknown> }>(
    'SELECT to_jsonb(c) AS step FROM webhook_claim($1, 0, now(), 60000) c',
    [deliveryId],
  );
  return rows[0]?.step;
}

/** webhook_record_attempts, as the worker calls it (recordAttempts in delivery/delivery.queries.ts). */
async function recordBatch(
  items: {
    delivery_id: string;
    attempt?: number;
    ok?: boolean;
    status_code?: number;
    response_body?: string;
    retry_delay_ms?: number | null;
    continue?: boolean;
  }[],
  on: Pick<pg.Client, 'query'> = pool,
): Promise<RecordedStep[]> {
  const full = items.map((i) => ({
    attempt: 0,
    attempt_id: newId('attempt'),
    attempted_at: new Date(),
    ok: true,
    status_code: 204,
    duration_ms: 3,
    error: null,
    response_body: '',
    retry_delay_ms: 60_000,
    continue: true,
    ...i,
  }));
  const { rows } = await on.query<RecordedStep>(
    `SELECT r.item, (r.step).outcome, (r.step).claim, (r.step).delivery_id, (r.step).retry_at,
            to_jsonb(r.step) AS step
       FROM webhook_record_attempts($1, now(), 432000000, 60000) r ORDER BY r.item`,
    [JSON.stringify(full)],
  );
  return rows;
}

/** A chain of `n` deliveries of one new lead to the subscription, oldest first. */
async function chainOf(subscriptionId: string, n: number): Promise<string[]> {
  const leadId = await h.lead();
  const t = Date.now() - 60_000;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await activity(leadId, 'message_sent', new Date(t + i)));
  await fanOut(ids.at(-1) ?? '');
  const chain = await h.prisma.delivery.findMany({
    where: { leadId, subscriptionId },
    orderBy: { activityOccurredAt: 'asc' },
  });
  return chain.map((d) => d.id);
}

/**
 * A new lead's 8 activities fanned out and its chain walked to the end from
 * `client`, as the worker does: webhook_fan_out_claims one activity at a time
 * (the first claims the chain's head), then webhook_record_attempts with a 204
 * for each claimed delivery, which claims the next. Returns the deliveries
 * recorded.
 */
async function fanOutAndWalk(client: pg.Client): Promise<number> {
  const leadId = await h.lead();
  const t = Date.now() - 60_000;
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) ids.push(await activity(leadId, 'message_sent', new Date(t + i)));
  const claimed: { delivery_id: string; attempt_count: number }[] = [];
  for (const id of ids) {
    const { rows } = await client.query<{ result: FanOutRow }>(
      'SELECT r.result FROM webhook_fan_out_claims($1, now(), 60000) r',
      [JSON.stringify([{ activity_id: id, first_delay_ms: 0, claim: 4 }])],
    );
    claimed.push(...((rows[0]?.result.claimed ?? []) as typeof claimed));
  }
  let recorded = 0;
  for (let step = claimed.shift(); step; step = claimed.shift()) {
    const [answer] = await recordBatch(
      [{ delivery_id: step.delivery_id, attempt: step.attempt_count }],
      client,
    );
    recorded++;
    if (answer?.claim === 'claimed') {
      claimed.push({ delivery_id: answer.delivery_id ?? '', attempt_count: 0 });
    }
  }
  return recorded;
}

/**
 * `n` pending deliveries of another lead to the subscription, inserted with SQL
 * and not analyzed: a subscriber that has been down, its backlog grown since the
 * statistics were taken.
 */
async function backlog(subscriptionId: string, n: number, status = 'pending'): Promise<void> {
  const leadId = await h.lead();
  await pool.query(
    `WITH a AS (
       INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data, occurred_at)
       SELECT leadhook_new_id('act'), $1, $2, 'event', 'message_sent', '', '{}', now() - i * interval '1 ms'
         FROM generate_series(1, $4::int) AS i
       RETURNING id, occurred_at)
     INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, activity_occurred_at,
                             status, queued, next_attempt_at)
     SELECT leadhook_new_id('dlv'), a.id, $3, $2, a.occurred_at, $5, $5 = 'pending', now() + interval '1 hour'
       FROM a`,
    [h.accountId, leadId, subscriptionId, n, status],
  );
}

describe('the delivery functions', () => {
  it('fan-out makes ids of the delivery form, queues all but the head, and runs once', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const t = Date.now();
    const first = await activity(leadId, 'started', new Date(t));
    const second = await activity(leadId, 'interested', new Date(t + 1));
    // The second activity's fan-out runs first and takes the lead's open first one along.
    const out = await fanOut(second);
    expect(out).toMatchObject({ result: 'fanned_out', deliveries: 2 });
    const rows = await h.prisma.delivery.findMany({
      where: { leadId, subscriptionId },
      include: { activity: true },
      orderBy: { activity: { occurredAt: 'asc' } },
    });
    expect(rows.map((d) => [d.activityId, d.queued])).toEqual([
      [first, false],
      [second, true],
    ]);
    for (const d of rows) expect(isId('delivery', d.id)).toBe(true);
    expect(out.heads).toEqual([
      { id: rows[0]?.id, created: true, attempt_count: 0, due_ms: expect.any(Number) },
    ]);
    expect(await fanOut(first)).toEqual({ result: 'already_done' });
    expect(await fanOut(second)).toEqual({ result: 'already_done' });
  });

  it('fan-out keeps index plans made while the tables were small, as they grow unanalyzed', async () => {
    // A session caches its plans at its first calls. In a new database those come
    // while the tables are nearly empty, and autovacuum analyzes (and so re-plans)
    // only a minute or more later: bench/e2e saw a sequential scan of activities
    // per fan-out for its first seconds (bench/RESULTS.md, "Figures that code
    // comments quoted"). Every statement of the
    // fan-out reads by key, so it reads a few rows whatever the sizes.
    const { ids, client } = await openActivitiesAndASession();
    try {
      const fan = async (id: string) => {
        const { rows } = await client.query<{ r: FanOut }>(
          'SELECT webhook_fan_out($1, now(), 0) AS r',
          [id],
        );
        expect(rows[0]?.r.result).toBe('fanned_out');
      };
      for (const id of ids.slice(0, 6)) await fan(id);
      // Another lead's 20,000 activities, their outbox rows still open.
      await pool.query(
        `WITH a AS (
           INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data, occurred_at)
           SELECT leadhook_new_id('act'), $1, $2, 'event', 'message_sent', '', '{}', now() - interval '1 day'
             FROM generate_series(1, 20000)
           RETURNING id)
         INSERT INTO outbox (topic, payload) SELECT 'activity', jsonb_build_object('activity_id', id) FROM a`,
        [h.accountId, await h.lead()],
      );
      await client.query('BEGIN');
      for (const id of ids.slice(6)) await fan(id);
      expect(await rowsRead(client, 'activities')).toBeLessThan(200);
      expect(await rowsRead(client, 'outbox')).toBeLessThan(200);
      // The open rows are found by their activity id, never by reading the topic's
      // open rows (the relay's index): see migration 20261122210000.
      const { rows: read } = await client.query<{ n: string }>(
        `SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0)::text AS n
           FROM pg_index
          WHERE indrelid = 'outbox'::regclass
            AND indexrelid::regclass::text NOT IN ('outbox_open_activity_idx', 'outbox_pkey')`,
      );
      expect(read).toEqual([{ n: '0' }]);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it('fan-out finds the open activities by the lead, also once a session would cache a generic plan', async () => {
    // A generic plan for "this lead's activities up to this one" scanned every
    // activity per fan-out (bench/e2e; prisma/functions/webhook/webhook_fan_out.sql)
    // once one lead had many activities. plpgsql may switch to a generic plan after
    // five calls in a session (the function now forces generic plans), so: one big
    // lead, then fan-outs of another lead's activities in one session, reading
    // only that lead's rows.
    const big = await h.lead();
    await pool.query(
      `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data, occurred_at)
       SELECT leadhook_new_id('act'), $1, $2, 'event', 'message_sent', '', '{}', now() - i * interval '1 second'
         FROM generate_series(1, 20000) AS i`,
      [h.accountId, big],
    );
    await pool.query('ANALYZE activities');
    const { ids, client } = await openActivitiesAndASession();
    try {
      await client.query('BEGIN');
      for (const id of ids) {
        const { rows } = await client.query<{ r: FanOut }>(
          'SELECT webhook_fan_out($1, now(), 0) AS r',
          [id],
        );
        expect(rows[0]?.r.result).toBe('fanned_out');
      }
      // Eight fan-outs of a lead with eight activities, beside a lead with 20,000.
      expect(await rowsRead(client, 'activities')).toBeLessThan(200);
    } finally {
      await client.end();
    }
  });

  it('fan-out inserts each delivery in its final state: the head unqueued, the ones behind it queued', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const t = Date.now();
    const first = await activity(leadId, 'started', new Date(t));
    const out1 = await fanOut(first);
    const second = await activity(leadId, 'interested', new Date(t + 1));
    const out2 = await fanOut(second);
    const head = await h.prisma.delivery.findFirstOrThrow({ where: { activityId: first } });
    const behind = await h.prisma.delivery.findFirstOrThrow({ where: { activityId: second } });
    expect([head.queued, behind.queued]).toEqual([false, true]);
    expect(out1.heads.map((x) => x.id)).toEqual([head.id]);
    expect(out2.heads).toEqual([]);
    // A late-announced older activity becomes a head too; webhook_claim sorts the
    // two heads out (covered below), and nothing was written twice.
    const older = await activity(leadId, 'message_sent', new Date(t - 1000));
    const out3 = await fanOut(older);
    const olderRow = await h.prisma.delivery.findFirstOrThrow({ where: { activityId: older } });
    expect(olderRow.queued).toBe(false);
    expect(out3.heads).toEqual([
      { id: olderRow.id, created: true, attempt_count: 0, due_ms: expect.any(Number) },
    ]);
    // The repair: a chain whose oldest pending delivery is queued (which no writer
    // leaves behind) gets its head unqueued by the next fan-out that touches it.
    await h.prisma.delivery.updateMany({
      where: { leadId, subscriptionId },
      data: { queued: true },
    });
    const fourth = await activity(leadId, 'message_sent', new Date(t + 2));
    const out4 = await fanOut(fourth);
    expect(out4.heads).toEqual([
      { id: olderRow.id, created: false, attempt_count: 0, due_ms: expect.any(Number) },
    ]);
    expect((await row(olderRow.id)).queued).toBe(false);
  });

  it('a fan-out claims at most p_claim due heads it created, leased; a killed sender leaves them to the reconciler', async () => {
    const subs = [
      await h.subscription({ url: 'http://127.0.0.1:9/a' }),
      await h.subscription({ url: 'http://127.0.0.1:9/b' }),
    ];
    const leadId = await h.lead();
    const a = await activity(leadId, 'started');
    const { rows } = await pool.query<{
      r: {
        heads: { id: string }[];
        claimed: { claim: string; delivery_id: string; url: string }[];
      };
    }>('SELECT webhook_fan_out_claim($1, now(), 0, 1, 300) AS r', [a]);
    const out = rows[0]?.r;
    expect(out?.claimed).toHaveLength(1);
    expect(out?.heads).toHaveLength(1);
    const claimed = out?.claimed[0];
    expect(claimed).toMatchObject({ claim: 'claimed' });
    expect(subs.map((s) => s.id)).toContain((await row(claimed?.delivery_id ?? '')).subscriptionId);
    expect((await row(claimed?.delivery_id ?? '')).claimedUntil).not.toBeNull();
    // The claimed one is leased (a second claim waits); the other is the queue's.
    expect((await claim(claimed?.delivery_id ?? ''))?.claim).toBe('busy');
    await reconcileOnce(deps(), { horizonMs: 0 });
    expect(
      await jobsOf(inspect, 'delivery', { delivery_id: claimed?.delivery_id ?? '', attempt: 0 }),
    ).toEqual([]);
    // Its sender dies without recording: once the lease lapses the reconciler sends it.
    await new Promise((r) => setTimeout(r, 400));
    await reconcileOnce(deps(), { horizonMs: 0 });
    expect(
      await liveJob(inspect, 'delivery', { delivery_id: claimed?.delivery_id ?? '', attempt: 0 }),
    ).toBeDefined();
    // Heads not due now are never claimed.
    const later = await activity(await h.lead(), 'started');
    const { rows: again } = await pool.query<{ r: { claimed: unknown[] } }>(
      'SELECT webhook_fan_out_claim($1, now(), 60000, 5, 300) AS r',
      [later],
    );
    expect(again[0]?.r.claimed).toEqual([]);
    // A claim needs a lease: without one the head would be open to every sender.
    await expect(
      pool.query('SELECT webhook_fan_out($1, now(), 0, 1)', [
        await activity(await h.lead(), 'started'),
      ]),
    ).rejects.toThrow(/claims need a lease/);
  });

  it("a fan-out's claimed step is webhook_claim's step for the same delivery; only chain heads are claimed", async () => {
    const sub = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    // Two open activities of one lead, fanned out together: one chain of two.
    const first = await activity(leadId, 'started', new Date(Date.now() - 1000));
    const second = await activity(leadId, 'message_sent');
    const { rows } = await pool.query<{
      r: { heads: { id: string }[]; claimed: Record<string, unknown>[] };
    }>('SELECT webhook_fan_out_claim($1, now(), 0, 5, 60000) AS r', [second]);
    const out = rows[0]?.r;
    // Five claims were allowed; the second delivery waits behind the first.
    expect(out?.claimed).toHaveLength(1);
    expect(out?.heads).toEqual([]);
    const step = out?.claimed[0] ?? {};
    expect(step).toMatchObject({
      claim: 'claimed',
      activity_id: first,
      subscription_id: sub.id,
      lead_id: leadId,
      attempt_count: 0,
      url: 'http://127.0.0.1:9/hook',
    });
    const queued = await h.prisma.delivery.findFirstOrThrow({ where: { activityId: second } });
    expect(queued).toMatchObject({ queued: true, claimedUntil: null });

    // webhook_claim's step for the same row: the same fields, and the same values.
    expect(await claimAlone(String(step.delivery_id))).toEqual(step);
  });

  it('a claim is a lease: a second claim waits for it, the reconciler leaves it alone', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const t = Date.now() - 10_000;
    const a = await activity(leadId, 'started', new Date(t));
    const b = await activity(leadId, 'interested', new Date(t + 1));
    await fanOut(b);
    const [head, next] = await Promise.all(
      [a, b].map((activityId) =>
        h.prisma.delivery.findUniqueOrThrow({
          where: { activityId_subscriptionId: { activityId, subscriptionId } },
        }),
      ),
    );
    if (!head || !next) throw new Error('no deliveries');

    expect((await claim(head.id))?.claim).toBe('claimed');
    const second = await claim(head.id);
    expect(second?.claim).toBe('busy');
    expect(second?.due_at?.getTime()).toBeGreaterThan(Date.now() + 50_000);
    // The waiting delivery is not its chain's head: claiming it names the head.
    expect(await claim(next.id)).toMatchObject({ claim: 'not_head', delivery_id: head.id });
    expect((await row(next.id)).queued).toBe(true);

    // Neither the leased head nor the queued one is the reconciler's to enqueue.
    await reconcileOnce(deps(), { horizonMs: 5000 });
    expect(await jobsOf(inspect, 'delivery', { delivery_id: head.id, attempt: 0 })).toEqual([]);
    expect(await jobsOf(inspect, 'delivery', { delivery_id: next.id, attempt: 0 })).toEqual([]);

    // Recording the head's success hands the chain on: with goOn the next one is claimed at once.
    expect(await succeed(head.id, true)).toMatchObject({
      outcome: 'succeeded',
      claim: 'claimed',
      delivery_id: next.id,
    });
    expect(await row(head.id)).toMatchObject({ status: 'succeeded', claimedUntil: null });
    expect(await row(next.id)).toMatchObject({ queued: false, status: 'pending' });
    expect((await row(next.id)).claimedUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(await succeed(next.id, false)).toMatchObject({ outcome: 'succeeded', claim: null });
  });

  it('keeps the hot path functions’ settings (re-creating a function resets them)', async () => {
    // Without enable_seqscan = off, a generic plan of a small table (a new
    // deployment's) scans it whole; migrations that replace these functions must
    // set it again.
    const { rows } = await pool.query<{ fn: string; config: string[] | null }>(
      `SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS fn,
              p.proconfig AS config
         FROM pg_proc p
        WHERE p.proname IN ('webhook_chain_head', 'webhook_claim', 'webhook_fan_out',
                            'webhook_fan_out_claims', 'webhook_record_attempt',
                            'webhook_record_attempts')
        ORDER BY p.proname`,
    );
    expect(
      Object.fromEntries(rows.map((r) => [r.fn.slice(0, r.fn.indexOf('(')), r.config])),
    ).toEqual({
      webhook_chain_head: ['enable_seqscan=off'],
      webhook_claim: ['enable_seqscan=off'],
      webhook_fan_out: ['plan_cache_mode=force_generic_plan', 'enable_seqscan=off'],
      webhook_fan_out_claims: ['enable_seqscan=off'],
      webhook_record_attempt: ['enable_seqscan=off'],
      webhook_record_attempts: ['enable_seqscan=off'],
    });
    // One of each: no stale overload left behind by a signature change.
    expect(rows).toHaveLength(6);
  });

  it('a release hands the lease of its own attempt back, to a claim and to the reconciler, and nothing else', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const a = await activity(leadId, 'started', new Date(Date.now() - 10_000));
    await fanOut(a);
    const { id } = await h.prisma.delivery.findUniqueOrThrow({
      where: { activityId_subscriptionId: { activityId: a, subscriptionId } },
    });
    // The releasing worker's claim leased until at most a minute and a second from now.
    const release = async (attempt: number, leaseUntil = "now() + interval '61 seconds'") => {
      const { rows } = await pool.query<{ released: boolean }>(
        `SELECT webhook_release($1, $2, now(), ${leaseUntil}) AS released`,
        [id, attempt],
      );
      return rows[0]?.released;
    };

    expect((await claim(id))?.claim).toBe('claimed');
    // Another attempt's release (one gone stale) leaves the lease alone.
    expect(await release(1)).toBe(false);
    expect((await claim(id))?.claim).toBe('busy');
    // So does a release by a worker whose own lease ended before this one began
    // (it stalled; another worker claimed the same attempt after the lapse).
    expect(await release(0, "now() + interval '30 seconds'")).toBe(false);
    expect((await claim(id))?.claim).toBe('busy');

    expect(await release(0)).toBe(true);
    // The row is as the claim found it: same attempt, due, its chain's head.
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attemptCount: 0,
      claimedUntil: null,
      queued: false,
    });
    expect(await h.prisma.attempt.count({ where: { deliveryId: id } })).toBe(0);
    await reconcileOnce(deps(), { horizonMs: 5000 });
    expect((await liveJob(inspect, 'delivery', { delivery_id: id, attempt: 0 }))?.data).toEqual({
      delivery_id: id,
      attempt: 0,
    });
    expect((await claim(id))?.claim).toBe('claimed');

    // A finished delivery has no lease to give back.
    expect(await succeed(id, false)).toMatchObject({ outcome: 'succeeded' });
    expect(await release(0)).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
  });

  it('records a batch as each attempt alone: each item answered by its position, chains go on, failures retry', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const [a1, a2] = await chainOf(subscriptionId, 2);
    const [b1, b2] = await chainOf(subscriptionId, 2);
    const [c1] = await chainOf(subscriptionId, 1);
    if (!a1 || !a2 || !b1 || !b2 || !c1) throw new Error('no chains');
    for (const id of [a1, b1, c1]) expect((await claim(id))?.claim).toBe('claimed');

    const steps = await recordBatch([
      { delivery_id: c1, ok: false, status_code: 500 },
      { delivery_id: a1 },
      { delivery_id: b1, continue: false },
      // The same attempt again (a duplicate job's), after the first in the batch
      // recorded it: stale, nothing changes (items of one chain run in their order).
      { delivery_id: a1, attempt: 0 },
    ]);
    expect(steps.map((s) => s.item)).toEqual([1, 2, 3, 4]);
    expect(steps[0]).toMatchObject({ outcome: 'retry', claim: null });
    expect(steps[0]?.retry_at?.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(steps[1]).toMatchObject({ outcome: 'succeeded', claim: 'claimed', delivery_id: a2 });
    expect(steps[2]).toMatchObject({ outcome: 'succeeded', claim: 'unclaimed', delivery_id: b2 });
    expect(steps[3]).toMatchObject({ outcome: 'stale' });

    expect(await row(c1)).toMatchObject({ status: 'pending', attemptCount: 1, claimedUntil: null });
    expect(await row(a1)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(await row(a2)).toMatchObject({ status: 'pending', queued: false });
    expect((await row(a2)).claimedUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(await row(b2)).toMatchObject({ queued: false, claimedUntil: null });
    // Every try is an attempt row, the stale one too (it did reach the subscriber).
    const attempts = await h.prisma.attempt.groupBy({
      by: ['deliveryId'],
      where: { deliveryId: { in: [a1, b1, c1] } },
      _count: true,
    });
    expect(Object.fromEntries(attempts.map((g) => [g.deliveryId, g._count]))).toEqual({
      [a1]: 2,
      [b1]: 1,
      [c1]: 1,
    });
    expect(
      (await h.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId } }))
        .failingSince,
    ).toBeNull();
  });

  it('records a batch of successes (set by set) as each attempt alone', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const [a1, a2] = await chainOf(subscriptionId, 2);
    const [b1, b2] = await chainOf(subscriptionId, 2);
    const [c1] = await chainOf(subscriptionId, 1);
    const [d1] = await chainOf(subscriptionId, 1);
    if (!a1 || !a2 || !b1 || !b2 || !c1 || !d1) throw new Error('no chains');
    for (const id of [a1, b1, c1, d1]) expect((await claim(id))?.claim).toBe('claimed');

    // In a transaction of its own, to see which functions it ran: set by set,
    // webhook_record_attempt is never called.
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    let steps: RecordedStep[];
    let perItemCalls: number;
    try {
      await client.query(`SET track_functions = 'pl'`);
      await client.query('BEGIN');
      steps = await recordBatch(
        [
          { delivery_id: b1, continue: false },
          // An attempt this delivery is no longer at (a duplicate job's): stale.
          { delivery_id: d1, attempt: 1 },
          { delivery_id: a1 },
          { delivery_id: c1 },
        ],
        client,
      );
      const { rows } = await client.query<{ calls: number }>(
        `SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_xact_user_functions
          WHERE funcname = 'webhook_record_attempt'`,
      );
      perItemCalls = rows[0]?.calls ?? -1;
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    expect(perItemCalls).toBe(0);
    expect(steps.map((s) => s.item)).toEqual([1, 2, 3, 4]);
    expect(steps[0]).toMatchObject({ outcome: 'succeeded', claim: 'unclaimed', delivery_id: b2 });
    expect(steps[1]).toMatchObject({ outcome: 'stale', claim: null, delivery_id: null });
    expect(steps[2]).toMatchObject({ outcome: 'succeeded', claim: 'claimed', delivery_id: a2 });
    // The end of its chain: the outcome alone.
    expect(steps[3]).toMatchObject({ outcome: 'succeeded', claim: null, delivery_id: null });

    for (const id of [a1, b1, c1]) {
      expect(await row(id)).toMatchObject({
        status: 'succeeded',
        attemptCount: 1,
        claimedUntil: null,
      });
    }
    expect(await row(d1)).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect((await row(d1)).claimedUntil).not.toBeNull();
    expect(await row(a2)).toMatchObject({ status: 'pending', queued: false });
    expect((await row(a2)).claimedUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(await row(b2)).toMatchObject({ status: 'pending', queued: false, claimedUntil: null });
    // The claimed head comes with everything its send needs: webhook_claim's step.
    const [e1, e2] = await chainOf(subscriptionId, 2);
    if (!e1 || !e2) throw new Error('no chain');
    expect((await claim(e1))?.claim).toBe('claimed');
    const [recorded] = await recordBatch([
      { delivery_id: e1, status_code: 200, response_body: 'ok' },
    ]);
    const e2Row = await row(e2);
    expect(recorded?.step).toMatchObject({
      outcome: 'succeeded',
      claim: 'claimed',
      delivery_id: e2,
      attempt_count: 0,
      subscription_id: subscriptionId,
      lead_id: e2Row.leadId,
      activity_id: e2Row.activityId,
      url: 'http://127.0.0.1:9/hook',
      activity_label: 'message_sent',
    });
    // Every field of webhook_step is there, as webhook_claim returns it.
    expect({ ...recorded?.step, outcome: null }).toEqual(await claimAlone(e2));
    const attempts = await h.prisma.attempt.findMany({
      where: { deliveryId: { in: [a1, b1, c1, d1] } },
    });
    expect(attempts.map((a) => a.deliveryId).sort()).toEqual([a1, b1, c1, d1].sort());

    // A subscriber that had been failing: item by item (its row is written
    // between its deliveries, as alone), and its failure clock stops.
    const failing = await h.subscription({ url: 'http://127.0.0.1:9/failing' });
    const [f1, f2] = await chainOf(failing.id, 2);
    if (!f1 || !f2) throw new Error('no chain');
    expect((await claim(f1))?.claim).toBe('claimed');
    await pool.query(
      `UPDATE subscriptions SET failing_since = now() - interval '1 day' WHERE id = $1`,
      [failing.id],
    );
    expect((await recordBatch([{ delivery_id: f1 }]))[0]).toMatchObject({
      outcome: 'succeeded',
      claim: 'claimed',
      delivery_id: f2,
    });
    expect(
      (await h.prisma.subscription.findUniqueOrThrow({ where: { id: failing.id } })).failingSince,
    ).toBeNull();
  });

  it("a record's own claim of the next delivery returns webhook_claim's step, with the attempt's outcome", async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const [a1, a2] = await chainOf(subscriptionId, 2);
    const [b1, b2] = await chainOf(subscriptionId, 2);
    if (!a1 || !a2 || !b1 || !b2) throw new Error('no chains');
    for (const id of [a1, b1]) expect((await claim(id))?.claim).toBe('claimed');
    // A batch with a failure goes item by item: each is webhook_record_attempt's,
    // which claims the due next delivery itself. b1 fails with the schedule spent.
    const steps = await recordBatch([
      { delivery_id: a1 },
      { delivery_id: b1, ok: false, status_code: 500, retry_delay_ms: null },
    ]);
    expect(steps[0]).toMatchObject({ outcome: 'succeeded', claim: 'claimed', delivery_id: a2 });
    expect(steps[1]).toMatchObject({ outcome: 'failed', claim: 'claimed', delivery_id: b2 });
    expect(await row(b1)).toMatchObject({ status: 'failed', attemptCount: 1 });
    // Every other field of webhook_step is webhook_claim's for the same delivery.
    expect({ ...steps[0]?.step, outcome: null }).toEqual(await claimAlone(a2));
    expect({ ...steps[1]?.step, outcome: null }).toEqual(await claimAlone(b2));
  });

  it('a record hands on to the next delivery only when it is due, unleased and its subscription live', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const [a1, a2] = await chainOf(subscriptionId, 2);
    const [b1, b2] = await chainOf(subscriptionId, 2);
    if (!a1 || !a2 || !b1 || !b2) throw new Error('no chains');
    for (const id of [a1, b1]) expect((await claim(id))?.claim).toBe('claimed');
    // a2 is due in an hour (a redelivery scheduled later, say); b2 is leased elsewhere.
    await pool.query(
      `UPDATE deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = $1`,
      [a2],
    );
    await pool.query(
      `UPDATE deliveries SET claimed_until = now() + interval '1 minute' WHERE id = $1`,
      [b2],
    );
    const steps = await recordBatch([{ delivery_id: a1 }, { delivery_id: b1 }]);
    expect(steps[0]).toMatchObject({ outcome: 'succeeded', claim: 'not_due', delivery_id: a2 });
    expect(steps[1]).toMatchObject({ outcome: 'succeeded', claim: 'busy', delivery_id: b2 });
    // Either way the next one is its chain's head now, for the reconciler to see.
    expect(await row(a2)).toMatchObject({ queued: false, status: 'pending' });
    expect(await row(b2)).toMatchObject({ queued: false, status: 'pending' });

    // A subscription disabled meanwhile: its next delivery is failed, not claimed.
    const [c1, c2] = await chainOf(subscriptionId, 2);
    if (!c1 || !c2) throw new Error('no chain');
    expect((await claim(c1))?.claim).toBe('claimed');
    await h.prisma.subscription.update({ where: { id: subscriptionId }, data: { enabled: false } });
    expect((await recordBatch([{ delivery_id: c1 }]))[0]).toMatchObject({
      outcome: 'succeeded',
      claim: 'subscription_disabled',
    });
    expect(await row(c2)).toMatchObject({ status: 'failed' });
  });

  it('records by key lookups, also with plans a session made while the tables were small', async () => {
    // A plain join of the items with deliveries was planned on a new database as
    // a scan of deliveries (a hash join, or a merge join over the whole primary
    // key), kept by the session: a scan of deliveries per record call
    // (bench/RESULTS.md, "Reading the runs of 00:48–00:57";
    // prisma/functions/webhook/webhook_record_attempts.sql).
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const chain = await chainOf(subscriptionId, 10);
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      expect((await claim(chain[0] ?? ''))?.claim).toBe('claimed');
      for (const id of chain.slice(0, 7)) {
        expect((await recordBatch([{ delivery_id: id }], client))[0]?.claim).toBe('claimed');
      }
      // Another lead's 20,000 deliveries of the same subscription, pending and
      // queued (in the chain and primary-key indexes the record reads), unanalyzed.
      const other = await h.lead();
      await pool.query(
        `WITH a AS (
           INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data, occurred_at)
           SELECT leadhook_new_id('act'), $1, $2, 'event', 'message_sent', '', '{}', now() - interval '1 day'
             FROM generate_series(1, 20000)
           RETURNING id, occurred_at)
         INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, activity_occurred_at, queued)
         SELECT leadhook_new_id('dlv'), id, $3, $2, occurred_at, true FROM a`,
        [h.accountId, other, subscriptionId],
      );
      await client.query('BEGIN');
      for (const id of chain.slice(7)) {
        expect((await recordBatch([{ delivery_id: id }], client))[0]?.outcome).toBe('succeeded');
      }
      expect(await rowsRead(client, 'deliveries')).toBeLessThan(200);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it("fans out a batch as each activity alone: a lead newest first, answers in the items' order", async () => {
    const subs = [
      await h.subscription({ url: 'http://127.0.0.1:9/a' }),
      await h.subscription({ url: 'http://127.0.0.1:9/b' }),
    ];
    const lead1 = await h.lead();
    const t = Date.now() - 60_000;
    const [a1, a2, a3] = [
      await activity(lead1, 'started', new Date(t)),
      await activity(lead1, 'message_sent', new Date(t + 1)),
      await activity(lead1, 'interested', new Date(t + 2)),
    ];
    const b1 = await activity(await h.lead(), 'started');
    const missing = newId('activity');
    const items = [a1, b1, a3, missing, a2].map((id, i) => ({
      activity_id: id,
      first_delay_ms: 0,
      claim: i === 2 ? 1 : 0,
    }));
    const { rows } = await pool.query<{
      item: number;
      result: { result: string; deliveries?: number; heads?: unknown[]; claimed?: unknown[] };
    }>('SELECT r.item, r.result FROM webhook_fan_out_claims($1, now(), 60000) r ORDER BY r.item', [
      JSON.stringify(items),
    ]);
    expect(rows.map((r) => r.item)).toEqual([1, 2, 3, 4, 5]);
    // a3, the lead's newest, fanned out the lead's three activities: a1 and a2 had nothing left.
    expect(rows[2]?.result).toMatchObject({ result: 'fanned_out', deliveries: 6 });
    expect(rows[2]?.result.claimed).toHaveLength(1);
    expect(rows[2]?.result.heads).toHaveLength(1);
    expect(rows[0]?.result).toEqual({ result: 'already_done' });
    expect(rows[4]?.result).toEqual({ result: 'already_done' });
    expect(rows[1]?.result).toMatchObject({ result: 'fanned_out', deliveries: 2 });
    expect(rows[3]?.result).toEqual({ result: 'activity_not_found' });
    // Each chain in occurrence order, its head first and the rest queued behind it.
    for (const sub of subs) {
      const chain = await h.prisma.delivery.findMany({
        where: { leadId: lead1, subscriptionId: sub.id },
        orderBy: { activityOccurredAt: 'asc' },
      });
      expect(chain.map((d) => [d.activityId, d.queued])).toEqual([
        [a1, false],
        [a2, true],
        [a3, true],
      ]);
    }
    expect(
      await h.prisma.outbox.count({
        where: { topic: 'activity', doneAt: null, payload: { path: ['activity_id'], equals: b1 } },
      }),
    ).toBe(0);
  });

  it('a fan-out batch reads subscriptions by account, also with plans made while the tables were small', async () => {
    // Only this test's subscription in the account (the earlier tests' disabled
    // ones would be read through the account's index too).
    await pool.query('DELETE FROM subscriptions WHERE account_id = $1', [h.accountId]);
    await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leads = [await h.lead(), await h.lead(), await h.lead()];
    const ids: string[] = [];
    for (const lead of leads) for (let i = 0; i < 3; i++) ids.push(await activity(lead, 'started'));
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    const batch = (activityIds: string[]) =>
      client.query('SELECT r.item, r.result FROM webhook_fan_out_claims($1, now(), 60000) r', [
        JSON.stringify(activityIds.map((id) => ({ activity_id: id, first_delay_ms: 0, claim: 0 }))),
      ]);
    try {
      for (const id of ids.slice(0, 6)) await batch([id]);
      // Another account's 5,000 subscriptions, unanalyzed.
      const other = newId('account');
      await pool.query(`INSERT INTO accounts (id, name) VALUES ($1, 'other')`, [other]);
      await pool.query(
        `INSERT INTO subscriptions (id, account_id, url, events, outcomes, secret)
         SELECT leadhook_new_id('sub'), $1, 'http://127.0.0.1:9/x', '{*}', '{*}', 'whsec_x'
           FROM generate_series(1, 5000)`,
        [other],
      );
      await client.query('BEGIN');
      const { rows } = await batch(ids.slice(6));
      expect(rows).toHaveLength(3);
      // This account's one subscription, a few times per statement; never the
      // other account's 5,000.
      expect(await rowsRead(client, 'subscriptions')).toBeLessThan(200);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it('the reconciler enqueues due heads only, not the backlog behind a retrying head', async () => {
    const dead = await h.subscription({ url: 'http://127.0.0.1:9/dead' });
    const leadId = await h.lead();
    const t = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await activity(leadId, 'message_sent', new Date(t + i)));
    await fanOut(ids.at(-1) ?? '');
    const chain = await h.prisma.delivery.findMany({
      where: { leadId, subscriptionId: dead.id },
      include: { activity: true },
      orderBy: { activity: { occurredAt: 'asc' } },
    });
    expect(chain.filter((d) => d.queued)).toHaveLength(29);
    const [head, second] = chain;
    if (!head || !second) throw new Error('no chain');

    // The head is due: the reconciler enqueues it (and only it).
    expect(await reconcileOnce(deps(), { horizonMs: 5000 })).toBe(1);
    expect(await liveJob(inspect, 'delivery', { delivery_id: head.id, attempt: 0 })).toBeDefined();

    // The head fails and waits for its retry in an hour: nothing is due.
    await pool.query(
      `UPDATE deliveries SET attempt_count = 1, next_attempt_at = now() + interval '1 hour'
        WHERE id = $1`,
      [head.id],
    );
    expect(await reconcileOnce(deps(), { horizonMs: 5000 })).toBe(0);

    // Redelivering a later one (the API resets its row) makes it a candidate, but
    // it is not its chain's head, so it is still not enqueued.
    await h.prisma.delivery.update({
      where: { id: second.id },
      data: { status: 'failed', queued: false },
    });
    await pool.query('SELECT webhook_redeliver($1, $2, now())', [second.id, h.accountId]);
    expect((await row(second.id)).queued).toBe(false);
    expect(await reconcileOnce(deps(), { horizonMs: 5000 })).toBe(0);
  });
});

// Last in the file: these tests leave large, analyzed tables behind them, and
// the tests above plan on small ones.
describe('the delivery functions at any table size', () => {
  beforeAll(async () => {
    // Statistics change only where a test says ANALYZE: an autovacuum analyze
    // between growing a table and the calls measured would re-plan them and let
    // a plan that reads the whole table go unseen.
    await pool.query('ALTER TABLE deliveries SET (autovacuum_enabled = false)');
  });

  it('the hot path reads deliveries by key, with plans made on a new database', async () => {
    // A new deployment's sessions plan while deliveries is empty. The claimed
    // steps (webhook_claimed_steps) were then read by a join from the
    // subscriptions through deliveries_subscription_id_id_idx: every delivery of
    // the subscription read at each fan-out and record that claimed one; a probe
    // per (activity, subscription) for an existing delivery could go the same
    // way (prisma/functions/webhook/webhook_claimed_steps.sql, webhook_fan_out.sql).
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    // As new: no delivery (the tests above are done with theirs), analyzed so.
    await pool.query('DELETE FROM deliveries');
    await pool.query('ANALYZE deliveries');
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      // Enough calls of each function for the session to keep generic plans.
      expect(await fanOutAndWalk(client)).toBe(8);
      await backlog(subscriptionId, 20_000, 'succeeded');
      await client.query('BEGIN');
      expect(await fanOutAndWalk(client)).toBe(8);
      expect(await rowsRead(client, 'deliveries')).toBeLessThan(200);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it("the hot path reads deliveries by key, also once a subscriber's backlog outgrows the statistics", async () => {
    // Statistics taken with many deliveries and few of them pending make the
    // partial chain index (the pending rows') look cheaper than the primary key:
    // the record batch's lock of each item's delivery, which named the status,
    // then read the whole chain index per item. A subscriber that goes down grows
    // the pending rows until the next analyze
    // (prisma/functions/webhook/webhook_record_attempts.sql).
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    await backlog(subscriptionId, 20_000, 'succeeded');
    await pool.query('ANALYZE deliveries');
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      expect(await fanOutAndWalk(client)).toBe(8);
      await backlog(subscriptionId, 20_000);
      await client.query('BEGIN');
      expect(await fanOutAndWalk(client)).toBe(8);
      expect(await rowsRead(client, 'deliveries')).toBeLessThan(200);
      // webhook_release names its row by key too.
      const read = await rowsRead(client, 'deliveries');
      const { rows: pending } = await pool.query<{ id: string }>(
        `SELECT id FROM deliveries WHERE subscription_id = $1 AND status = 'pending' LIMIT 1`,
        [subscriptionId],
      );
      await client.query(`SELECT webhook_release($1, 0, now(), now() + interval '1 hour')`, [
        pending[0]?.id,
      ]);
      expect((await rowsRead(client, 'deliveries')) - read).toBeLessThan(10);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });
  it("the delivery states the keyed statements spell out are the table's only ones", async () => {
    // webhook_record_attempts and webhook_release say "pending" as "neither
    // succeeded nor failed" (prisma/functions/webhook/), the same rows only while
    // these three are all there are: a new state must be added to them too.
    const { rows } = await pool.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'deliveries'::regclass AND contype = 'c' AND conname LIKE '%status%'`,
    );
    expect(rows).toEqual([
      { def: "CHECK ((status = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text])))" },
    ]);
  });
});
