import type { Pool, PrismaClient } from '@leadhook/db';
import {
  aDelivery,
  aLead,
  aLeadOwner,
  aSubscription,
  createTestStores,
  type LeadOwner,
  type TestStores,
} from '@leadhook/testkit';
import { RETENTION_LOCK_KEY, RetentionJob, type RetentionKind } from './retention.js';
import { createAttempt, createIdempotencyKey } from './testing/index.js';

const DAY_MS = 86_400_000;

let stores: TestStores;
let pool: Pool;
let prisma: PrismaClient;
let owner: LeadOwner;

beforeAll(async () => {
  stores = await createTestStores({ poolMax: 4, prismaPoolMax: 2 });
  ({ pool, prisma } = stores);
  owner = await aLeadOwner(prisma);
});
afterEach(async () => {
  await pool.query('TRUNCATE idempotency_keys, attempts, provider_held_statuses');
});
afterAll(() => stores.close());

function job(overrides: Partial<ConstructorParameters<typeof RetentionJob>[0]> = {}) {
  return new RetentionJob({
    pool,
    attemptBodyRetentionMs: 30 * DAY_MS,
    ...overrides,
  });
}

async function ids(sql: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(sql);
  return rows.map((r) => r.id).sort();
}

describe('RetentionJob', () => {
  it('deletes idempotency keys older than 24 h and keeps younger ones', async () => {
    const old = await createIdempotencyKey(pool, owner, 25);
    const young = await createIdempotencyKey(pool, owner, 23);

    const removed = await job().runOnce();

    expect(removed).toEqual({ idempotency_keys: 1, attempt_bodies: 0, held_statuses: 0 });
    const kept = await ids('SELECT key AS id FROM idempotency_keys');
    expect(kept).toEqual([young]);
    expect(kept).not.toContain(old);
  });

  it('empties response bodies older than ATTEMPT_BODY_RETENTION and keeps the attempts', async () => {
    const lead = await aLead(prisma, owner);
    const to = await aSubscription(prisma, {
      accountId: owner.accountId,
      url: 'https://hooks.example.com/x',
    });
    const { deliveryId: delivery } = await aDelivery(
      prisma,
      { accountId: owner.accountId, leadId: lead.id, subscriptionId: to.id },
      { status: 'succeeded' },
    );
    const old = await createAttempt(pool, delivery, 24 * 3);
    const young = await createAttempt(pool, delivery, 24 * 1);

    const removed = await job({ attemptBodyRetentionMs: 2 * DAY_MS }).runOnce();

    expect(removed?.attempt_bodies).toBe(1);
    const { rows } = await pool.query<{
      id: string;
      response_body: string | null;
      status_code: number;
    }>('SELECT id, response_body, status_code FROM attempts ORDER BY attempted_at');
    expect(rows).toEqual([
      { id: old, response_body: null, status_code: 200 },
      { id: young, response_body: 'ok', status_code: 200 },
    ]);
    // Emptied once: the next round finds nothing.
    expect((await job({ attemptBodyRetentionMs: 2 * DAY_MS }).runOnce())?.attempt_bodies).toBe(0);
  });

  it('deletes carrier statuses held for a SID no message took within 7 days', async () => {
    const hold = async (sid: string, hoursAgo: number) => {
      await pool.query(
        `INSERT INTO provider_held_statuses (provider, carrier_id, channel, status, received_at)
         VALUES ('twilio', $1, 'sms', 'delivered', now() - make_interval(hours => $2))`,
        [sid, hoursAgo],
      );
    };
    await hold('SMold', 24 * 7 + 1);
    await hold('SMyoung', 24 * 7 - 1);

    const removed = await job().runOnce();

    expect(removed?.held_statuses).toBe(1);
    expect(await ids('SELECT carrier_id AS id FROM provider_held_statuses')).toEqual(['SMyoung']);
  });

  it('works in bounded batches, oldest first, and reports each batch', async () => {
    for (let i = 0; i < 7; i++) await createIdempotencyKey(pool, owner, 30 + i);
    const batches: number[] = [];
    const bounded = job({
      batchSize: 2,
      maxBatchesPerRound: 2,
      onRemoved: (kind: RetentionKind, count: number) => {
        if (kind === 'idempotency_keys') batches.push(count);
      },
    });

    expect((await bounded.runOnce())?.idempotency_keys).toBe(4);
    expect(batches).toEqual([2, 2]);
    const { rows } = await pool.query<{ hours: number }>(
      `SELECT round(EXTRACT(EPOCH FROM now() - created_at) / 3600)::int AS hours
         FROM idempotency_keys ORDER BY created_at DESC`,
    );
    // The four oldest went first.
    expect(rows.map((r) => r.hours)).toEqual([30, 31, 32]);
    expect((await bounded.runOnce())?.idempotency_keys).toBe(3);
    expect((await bounded.runOnce())?.idempotency_keys).toBe(0);
  });

  it('skips the round while another process holds the lock', async () => {
    await createIdempotencyKey(pool, owner, 48);
    const other = await pool.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
      expect(await job().runOnce()).toBeNull();
      expect(await ids('SELECT key AS id FROM idempotency_keys')).toHaveLength(1);
    } finally {
      await other.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
      other.release();
    }
    expect((await job().runOnce())?.idempotency_keys).toBe(1);
  });

  it('never removes a row twice across concurrent copies, and leaves no lock held', async () => {
    for (let i = 0; i < 5; i++) await createIdempotencyKey(pool, owner, 30 + i);
    const results = await Promise.all([job().runOnce(), job().runOnce(), job().runOnce()]);
    const worked = results.filter((r) => r !== null);
    expect(worked.length).toBeGreaterThanOrEqual(1);
    expect(worked.reduce((sum, r) => sum + (r?.idempotency_keys ?? 0), 0)).toBe(5);
    // The lock is released after each round: nothing is left held.
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND objsubid = 1 AND objid = ($1::bigint % 4294967296)::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [RETENTION_LOCK_KEY],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
