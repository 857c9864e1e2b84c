import { idFloor, type Pool, type PrismaClient } from '@leadhook/db';
import {
  aLead,
  aLeadOwner,
  aSubscription,
  createTestStores,
  type LeadOwner,
  type TestStores,
} from '@leadhook/testkit';
import {
  OUTBOX_PARTITION_DAYS_AHEAD,
  PartitionJob,
  type PartitionJobOptions,
} from './partitions.js';
import { createOutboxRow } from './testing/index.js';

const DAY_MS = 86_400_000;

/** A job that keeps every month and a year of outbox days unless told. */
function job(overrides: Partial<PartitionJobOptions> = {}): PartitionJob {
  return new PartitionJob({
    pool,
    historyRetentionMs: null,
    outboxRetentionMs: 365 * DAY_MS,
    ...overrides,
  });
}

let stores: TestStores;
let pool: Pool;
let prisma: PrismaClient;
let owner: LeadOwner;

beforeAll(async () => {
  stores = await createTestStores({ poolMax: 4, prismaPoolMax: 2 });
  ({ pool, prisma } = stores);
  owner = await aLeadOwner(prisma);
});
afterAll(() => stores.close());

function monthStart(at: Date, plus = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1));
}

function month(at: Date): string {
  return `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** An id of `kind` made at `at` (a random tail as newId's). */
function idAt(kind: 'activity' | 'delivery' | 'attempt' | 'submission', at: Date): string {
  return idFloor(kind, at).slice(0, -16) + Math.random().toString(32).slice(2, 18).padEnd(16, '0');
}

async function partitions(table: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT r_partition AS name FROM leadhook_history_partitions() WHERE r_table = $1`,
    [table],
  );
  return rows.map((r) => r.name);
}

/** outbox_pYYYYMMDD of the UTC day `days` from now's. */
function outboxDay(days: number, from = new Date()): string {
  const at = new Date(from.getTime() + days * DAY_MS);
  return `outbox_p${at.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

async function outboxPartitions(): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    'SELECT r_partition AS name FROM leadhook_outbox_partitions()',
  );
  return rows.map((r) => r.name);
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(sql, params);
  return rows[0]?.n ?? 0;
}

describe('PartitionJob', () => {
  it('creates each month up to three ahead, once, whichever copies run it', async () => {
    // Eight months from now: the months in between and three after it are missing.
    const later = monthStart(new Date(), 8);
    const jobs = [0, 1, 2].map(() => job({ now: () => later }));
    const rounds = await Promise.all(jobs.map((j) => j.runOnce()));
    const created = rounds.flatMap((r) => r?.created ?? []);
    for (const table of ['submissions', 'activities', 'deliveries', 'attempts']) {
      for (let m = 8; m <= 11; m++) {
        const name = `${table}_p${month(monthStart(new Date(), m))}`;
        expect(await partitions(table)).toContain(name);
        expect(created.filter((c) => c === name).length).toBeLessThanOrEqual(1);
      }
    }
    // A later round finds nothing to do.
    expect(await job({ now: () => later }).runOnce()).toEqual({
      created: [],
      dropped: [],
      held: [],
    });
    // And an id of the furthest month is taken.
    const { id: leadId } = await aLead(prisma, owner);
    const id = idAt('activity', monthStart(new Date(), 11));
    await pool.query(
      `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note)
       VALUES ($1, $2, $3, 'event', 'far', 'n')`,
      [id, owner.accountId, leadId],
    );
    await pool.query('DELETE FROM activities WHERE id = $1', [id]);
  });

  it('drops the months past HISTORY_RETENTION whole, with what later months kept of them, and nothing without it', async () => {
    const now = new Date();
    const old = new Date(monthStart(now, -14).getTime() + 10 * DAY_MS);
    await pool.query('SELECT leadhook_history_partitions_ensure($1, $1)', [old]);
    const { id: leadId } = await aLead(prisma, owner);
    const { id: subscriptionId } = await aSubscription(prisma, {
      accountId: owner.accountId,
      url: 'http://127.0.0.1:9/hook',
    });
    const ids = {
      oldSubmission: idAt('submission', old),
      oldActivity: idAt('activity', old),
      oldDelivery: idAt('delivery', old),
      oldAttempt: idAt('attempt', old),
      // This month's rows that reference the old month's: they go with it.
      lateDelivery: idAt('delivery', now),
      lateAttempt: idAt('attempt', now),
      // This month's own rows: kept.
      activity: idAt('activity', now),
      delivery: idAt('delivery', now),
      attempt: idAt('attempt', now),
    };
    await pool.query(
      `INSERT INTO submissions (id, account_id, source_id, result, lead_id)
       VALUES ($1, $2, $3, 'accepted', $4)`,
      [ids.oldSubmission, owner.accountId, owner.sourceId, leadId],
    );
    await pool.query(
      `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note)
       VALUES ($1, $3, $4, 'event', 'old', 'n'), ($2, $3, $4, 'event', 'new', 'n')`,
      [ids.oldActivity, ids.activity, owner.accountId, leadId],
    );
    await pool.query(
      `INSERT INTO deliveries (id, activity_id, subscription_id, lead_id)
       VALUES ($1, $2, $5, $6), ($3, $2, $5, $6), ($4, $7, $5, $6)`,
      [
        ids.oldDelivery,
        ids.oldActivity,
        ids.lateDelivery,
        ids.delivery,
        subscriptionId,
        leadId,
        ids.activity,
      ],
    );
    // lateAttempt: an attempt made this month of the old month's delivery.
    await pool.query(
      `INSERT INTO attempts (id, delivery_id, attempted_at, duration_ms)
       VALUES ($1, $2, now(), 1), ($3, $2, now(), 1), ($4, $5, now(), 1)`,
      [ids.oldAttempt, ids.oldDelivery, ids.lateAttempt, ids.attempt, ids.delivery],
    );
    const oldMonth = month(old);

    // Unset: every month stays.
    expect((await job().runOnce())?.dropped).toEqual([]);
    expect(await partitions('activities')).toContain(`activities_p${oldMonth}`);

    const round = await job({ historyRetentionMs: 380 * DAY_MS }).runOnce();
    expect(round?.dropped).toEqual(
      ['attempts', 'deliveries', 'activities', 'submissions'].map((t) => `${t}_p${oldMonth}`),
    );
    for (const table of ['submissions', 'activities', 'deliveries', 'attempts']) {
      expect(await partitions(table)).not.toContain(`${table}_p${oldMonth}`);
      expect(
        await count('SELECT count(*)::int AS n FROM pg_class WHERE relname = $1', [
          `${table}_p${oldMonth}`,
        ]),
      ).toBe(0);
    }
    const kept = async (table: string) =>
      (
        await pool.query<{ id: string }>(
          `SELECT id FROM ${table} WHERE id = ANY ($1) ORDER BY id`,
          [Object.values(ids)],
        )
      ).rows.map((r) => r.id);
    expect(await kept('submissions')).toEqual([]);
    expect(await kept('activities')).toEqual([ids.activity]);
    expect(await kept('deliveries')).toEqual([ids.delivery]);
    expect(await kept('attempts')).toEqual([ids.attempt]);
    // This month and the next three are still there.
    for (let m = 0; m <= 3; m++) {
      expect(await partitions('activities')).toContain(`activities_p${month(monthStart(now, m))}`);
    }

    // Idempotent: the next round has nothing to drop.
    expect((await job({ historyRetentionMs: 380 * DAY_MS }).runOnce())?.dropped).toEqual([]);
  });

  it('creates the outbox days up to a week ahead, and a day with no partition takes no row', async () => {
    // Forty days from now: none of those days exists yet.
    const later = new Date(Date.now() + 40 * DAY_MS);
    const round = await job({ now: () => later }).runOnce();
    const wanted = Array.from({ length: OUTBOX_PARTITION_DAYS_AHEAD + 1 }, (_, d) =>
      outboxDay(d, later),
    );
    expect(round?.created.filter((name) => name.startsWith('outbox_'))).toEqual(wanted);
    expect(await outboxPartitions()).toEqual(expect.arrayContaining(wanted));
    expect((await job({ now: () => later }).runOnce())?.created).toEqual([]);

    // A row of the furthest day goes in; one of the day after it has no partition
    // (there is no catch-all for it) and is refused, not kept somewhere else.
    const at = (days: number) => new Date(later.getTime() + days * DAY_MS);
    await pool.query(
      `INSERT INTO outbox (topic, payload, created_at) VALUES ('enrollment', '{"lead_id":"lead_far"}', $1)`,
      [at(OUTBOX_PARTITION_DAYS_AHEAD)],
    );
    await pool.query(`DELETE FROM outbox WHERE payload->>'lead_id' = 'lead_far'`);
    await expect(
      pool.query(
        `INSERT INTO outbox (topic, payload, created_at) VALUES ('enrollment', '{"lead_id":"lead_far"}', $1)`,
        [at(OUTBOX_PARTITION_DAYS_AHEAD + 1)],
      ),
    ).rejects.toThrow(/no partition of relation "outbox" found for row/);
  });

  it('drops the outbox days past OUTBOX_RETENTION whole, but keeps a day with an open row until it is closed', async () => {
    // Rows made at noon (UTC) of days past, closed an hour later or open.
    const midnight = Date.UTC(
      new Date().getUTCFullYear(),
      new Date().getUTCMonth(),
      new Date().getUTCDate(),
    );
    const noonHoursAgo = (days: number) =>
      (Date.now() - (midnight - days * DAY_MS)) / 3_600_000 - 12;
    const closedOld = await createOutboxRow(pool, noonHoursAgo(9), noonHoursAgo(9) - 1);
    const openOld = await createOutboxRow(pool, noonHoursAgo(8), null);
    const closedRecent = await createOutboxRow(pool, noonHoursAgo(3), noonHoursAgo(3) - 1);
    const today = await createOutboxRow(pool, 0, null);
    const [closedDay, openDay, recentDay] = [outboxDay(-9), outboxDay(-8), outboxDay(-3)];
    const { rows: placed } = await pool.query<{ part: string }>(
      'SELECT tableoid::regclass::text AS part FROM outbox WHERE id = ANY ($1) ORDER BY id',
      [[closedOld, openOld, closedRecent]],
    );
    expect(placed.map((p) => p.part)).toEqual([closedDay, openDay, recentDay]);

    const round = await job({ outboxRetentionMs: 7 * DAY_MS }).runOnce();

    // Every day that ended more than 7 days ago and has no open row: the oldest
    // of the test database's days, and the closed row's.
    expect(round?.dropped).toContain(closedDay);
    expect(round?.dropped).toContain(outboxDay(-10));
    expect(round?.dropped).not.toContain(openDay);
    expect(round?.held).toEqual([{ partition: openDay, openRows: 1 }]);
    const kept = await outboxPartitions();
    expect(kept).not.toContain(closedDay);
    expect(kept).toEqual(expect.arrayContaining([openDay, recentDay, outboxDay(0)]));
    expect(
      await count('SELECT count(*)::int AS n FROM pg_class WHERE relname = $1', [closedDay]),
    ).toBe(0);
    const { rows } = await pool.query<{ id: string }>(
      'SELECT id::text AS id FROM outbox ORDER BY id',
    );
    expect(rows.map((r) => r.id)).toEqual([openOld, closedRecent, today]);

    // Its consumer catches up: the next round drops the day.
    await pool.query('UPDATE outbox SET done_at = now() WHERE id = $1', [openOld]);
    const next = await job({ outboxRetentionMs: 7 * DAY_MS }).runOnce();
    expect(next?.dropped).toEqual([openDay]);
    expect(next?.held).toEqual([]);
    expect(await outboxPartitions()).toEqual(expect.arrayContaining([recentDay, outboxDay(0)]));
    await pool.query('TRUNCATE outbox');
  });
});
