import { newId, type Pool } from '@leadhook/db';
import { QueueSet } from '@leadhook/queue';
import { addPastHistoryPartitions, forgetRedis, TEST_REDIS_URL, waitFor } from '@leadhook/testkit';
import { Queue } from 'bullmq';
import pg from 'pg';
import type { FanOutRow } from '../fanout.queries.js';
import { Harness } from './harness.js';

/**
 * What the tests of the hot path's SQL functions (prisma/functions/webhook/, one
 * test file a routine: delivery.*.sql.test.ts) share: they run them on their own,
 * with no worker running. A test file calls useDeliverySql() once; the bindings
 * below are set in its beforeAll.
 */

export let h: Harness;
export let pool: Pool;
let queues: QueueSet;
export let inspect: Queue;
let prefix: string;

/** The test file's harness, pool, queues, and cleanup after each test and at the end. */
export function useDeliverySql(): void {
  beforeAll(async () => {
    h = await Harness.create({ poolMax: 4 });
    pool = h.pool;
    // Every keyed read of the hot path, with a year of monthly partitions present.
    await addPastHistoryPartitions(pool);
    prefix = Harness.newPrefix();
    queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
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
    await h.close();
  });
}

export const deps = () => ({ pool, queues, now: () => new Date() });

/** An activity of the lead with its open outbox row, as the activity path writes it. */
export const activity = (leadId: string, label: string, occurredAt?: Date) =>
  h.openActivity(leadId, label, occurredAt);

export interface FanOut {
  result: string;
  deliveries: number;
  heads: { id: string; created: boolean }[];
}
export async function fanOut(activityId: string): Promise<FanOut> {
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
export async function openActivitiesAndASession() {
  await h.subscription({ url: 'http://127.0.0.1:9/hook' });
  const leadId = await h.lead();
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) ids.push(await activity(leadId, 'message_sent'));
  const client = new pg.Client({ connectionString: h.db.url });
  await client.connect();
  return { ids, client };
}

export async function claim(deliveryId: string, attempt = 0, leaseMs = 60_000) {
  const { rows } = await pool.query<{ claim: string; delivery_id: string; due_at: Date | null }>(
    'SELECT claim, delivery_id, due_at FROM webhook_claim($1, $2, now(), $3)',
    [deliveryId, attempt, leaseMs],
  );
  return rows[0];
}

export async function succeed(deliveryId: string, goOn: boolean) {
  const { rows } = await pool.query<{ outcome: string; claim: string | null; delivery_id: string }>(
    `SELECT outcome, claim, delivery_id FROM webhook_record_attempt(
       $1, 0, $2, now(), now(), true, 204, 3, NULL, '', NULL, 432000000, $3, 60000)`,
    [deliveryId, newId('attempt'), goOn],
  );
  return rows[0];
}

export const row = (id: string) => h.prisma.delivery.findUniqueOrThrow({ where: { id } });

export interface RecordedStep {
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
export async function claimAlone(deliveryId: string): Promise<Record<string, unknown> | undefined> {
  await pool.query('UPDATE deliveries SET claimed_until = NULL WHERE id = $1', [deliveryId]);
  const { rows } = await pool.query<{ step: Record<string, unknown> }>(
    'SELECT to_jsonb(c) AS step FROM webhook_claim($1, 0, now(), 60000) c',
    [deliveryId],
  );
  return rows[0]?.step;
}

/** webhook_record_attempts, as the worker calls it (recordAttempts in delivery/delivery.queries.ts). */
export async function recordBatch(
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
export async function chainOf(subscriptionId: string, n: number): Promise<string[]> {
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
export async function fanOutAndWalk(client: pg.Client): Promise<number> {
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
export async function backlog(
  subscriptionId: string,
  n: number,
  status = 'pending',
): Promise<void> {
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
