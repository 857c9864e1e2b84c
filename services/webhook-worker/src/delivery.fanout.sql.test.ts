import { isId, newId } from '@leadhook/db';
import { jobsOf, liveJob } from '@leadhook/queue';
import { rowsRead } from '@leadhook/testkit';
import pg from 'pg';
import { reconcileOnce } from './reconciler.js';
import * as sql from './testing/delivery-sql.js';
import { h, inspect, pool, useDeliverySql } from './testing/delivery-sql.js';

// webhook_fan_out and webhook_fan_out_claims, the fan-out of an activity to its
// subscriptions' chains (prisma/functions/webhook/), on their own with no worker running.

useDeliverySql();

describe('the delivery functions', () => {
  it('fan-out makes ids of the delivery form, queues all but the head, and runs once', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const t = Date.now();
    const first = await sql.activity(leadId, 'started', new Date(t));
    const second = await sql.activity(leadId, 'interested', new Date(t + 1));
    // The second activity's fan-out runs first and takes the lead's open first one along.
    const out = await sql.fanOut(second);
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
    expect(await sql.fanOut(first)).toEqual({ result: 'already_done' });
    expect(await sql.fanOut(second)).toEqual({ result: 'already_done' });
  });

  it('fan-out keeps index plans made while the tables were small, as they grow unanalyzed', async () => {
    // A session caches its plans at its first calls. In a new database those come
    // while the tables are nearly empty, and autovacuum analyzes (and so re-plans)
    // only a minute or more later: bench/e2e saw a sequential scan of activities
    // per fan-out for its first seconds (bench/RESULTS.md, "Figures that code
    // comments quoted"). Every statement of the
    // fan-out reads by key, so it reads a few rows whatever the sizes.
    const { ids, client } = await sql.openActivitiesAndASession();
    try {
      const fan = async (id: string) => {
        const { rows } = await client.query<{ r: sql.FanOut }>(
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
      // open rows (the relay's index): see migration 20261122210000. The outbox is
      // partitioned by day (docs/operations.md, "Outbox partitions"): what its
      // partitions' indexes returned.
      const { rows: read } = await client.query<{ n: string }>(
        `SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(i.indexrelid)), 0)::text AS n
           FROM pg_index i
          WHERE i.indrelid IN (SELECT relid FROM pg_partition_tree('outbox'))
            AND i.indexrelid NOT IN (SELECT relid FROM pg_partition_tree('outbox_open_activity_idx')
                                     UNION ALL
                                     SELECT relid FROM pg_partition_tree('outbox_pkey'))`,
      );
      expect(read).toEqual([{ n: '0' }]);
      // And each open row in its own day's partition: the fan-outs descended the
      // open-activity index of today's partition alone (and yesterday's, when the
      // test runs across midnight), not one per day kept.
      const { rows: days } = await client.query<{ part: string }>(
        `SELECT c.relname::text AS part
           FROM pg_partition_tree('outbox_open_activity_idx') t JOIN pg_class c ON c.oid = t.relid
          WHERE t.isleaf AND pg_stat_get_xact_numscans(t.relid) > 0`,
      );
      expect(days.length).toBeGreaterThanOrEqual(1);
      expect(days.length).toBeLessThanOrEqual(2);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it('fan-out takes along an earlier activity of another day whose row is still open, and closes both', async () => {
    // Each open row is looked for in its own activity's day (docs/operations.md,
    // "Outbox partitions"): one of three days ago, written as the activity path
    // writes it, its created_at the activity's.
    await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const old = newId('activity');
    await pool.query(
      `WITH a AS (
         INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data,
                                 occurred_at, created_at)
         VALUES ($1, $2, $3, 'event', 'started', '', '{}', now() - interval '3 days',
                 now() - interval '3 days')
         RETURNING id, created_at)
       INSERT INTO outbox (topic, payload, created_at)
       SELECT 'activity', jsonb_build_object('activity_id', id), created_at FROM a`,
      [old, h.accountId, leadId],
    );
    const current = await sql.activity(leadId, 'message_sent');
    expect(await sql.fanOut(current)).toMatchObject({ result: 'fanned_out', activities: 2 });
    const { rows } = await pool.query<{ id: string; done: boolean }>(
      `SELECT payload->>'activity_id' AS id, done_at IS NOT NULL AS done FROM outbox
        WHERE payload->>'activity_id' = ANY ($1) ORDER BY created_at`,
      [[old, current]],
    );
    expect(rows).toEqual([
      { id: old, done: true },
      { id: current, done: true },
    ]);
  });

  it('fan-out of an activity that is gone closes its open outbox row, whatever its day', async () => {
    // Its activity (a lead deleted under the fan-out) has no created_at to look by:
    // the row is found by its payload in every day's partition.
    const gone = newId('activity');
    await pool.query(
      `INSERT INTO outbox (topic, payload, created_at)
       VALUES ('activity', jsonb_build_object('activity_id', $1::text), now() - interval '3 days')`,
      [gone],
    );
    expect(await sql.fanOut(gone)).toEqual({ result: 'activity_not_found' });
    const { rows } = await pool.query<{ done: boolean }>(
      `SELECT done_at IS NOT NULL AS done FROM outbox WHERE payload->>'activity_id' = $1`,
      [gone],
    );
    expect(rows).toEqual([{ done: true }]);
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
    const { ids, client } = await sql.openActivitiesAndASession();
    try {
      await client.query('BEGIN');
      for (const id of ids) {
        const { rows } = await client.query<{ r: sql.FanOut }>(
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
    const first = await sql.activity(leadId, 'started', new Date(t));
    const out1 = await sql.fanOut(first);
    const second = await sql.activity(leadId, 'interested', new Date(t + 1));
    const out2 = await sql.fanOut(second);
    const head = await h.prisma.delivery.findFirstOrThrow({ where: { activityId: first } });
    const behind = await h.prisma.delivery.findFirstOrThrow({ where: { activityId: second } });
    expect([head.queued, behind.queued]).toEqual([false, true]);
    expect(out1.heads.map((x) => x.id)).toEqual([head.id]);
    expect(out2.heads).toEqual([]);
    // A late-announced older activity becomes a head too; webhook_claim sorts the
    // two heads out (covered below), and nothing was written twice.
    const older = await sql.activity(leadId, 'message_sent', new Date(t - 1000));
    const out3 = await sql.fanOut(older);
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
    const fourth = await sql.activity(leadId, 'message_sent', new Date(t + 2));
    const out4 = await sql.fanOut(fourth);
    expect(out4.heads).toEqual([
      { id: olderRow.id, created: false, attempt_count: 0, due_ms: expect.any(Number) },
    ]);
    expect((await sql.row(olderRow.id)).queued).toBe(false);
  });

  it('a fan-out claims at most p_claim due heads it created, leased; a killed sender leaves them to the reconciler', async () => {
    const subs = [
      await h.subscription({ url: 'http://127.0.0.1:9/a' }),
      await h.subscription({ url: 'http://127.0.0.1:9/b' }),
    ];
    const leadId = await h.lead();
    const a = await sql.activity(leadId, 'started');
    const { rows } = await pool.query<{
      r: {
        heads: { id: string }[];
        claimed: { claim: string; delivery_id: string; url: string }[];
      };
    }>('SELECT webhook_fan_out_claim($1, now(), 0, 1, 60000) AS r', [a]);
    const out = rows[0]?.r;
    expect(out?.claimed).toHaveLength(1);
    expect(out?.heads).toHaveLength(1);
    const claimed = out?.claimed[0];
    expect(claimed).toMatchObject({ claim: 'claimed' });
    expect(subs.map((s) => s.id)).toContain(
      (await sql.row(claimed?.delivery_id ?? '')).subscriptionId,
    );
    expect((await sql.row(claimed?.delivery_id ?? '')).claimedUntil).not.toBeNull();
    // The claimed one is leased (a second claim waits); the other is the queue's.
    expect((await sql.claim(claimed?.delivery_id ?? ''))?.claim).toBe('busy');
    await reconcileOnce(sql.deps(), { horizonMs: 0 });
    expect(
      await jobsOf(inspect, 'delivery', { delivery_id: claimed?.delivery_id ?? '', attempt: 0 }),
    ).toEqual([]);
    // Its sender dies without recording: once the lease lapses the reconciler sends it.
    // The lapse is written rather than waited for, so a slow machine cannot outlast a
    // short lease before the "busy" check above.
    await h.prisma.delivery.updateMany({
      where: { id: claimed?.delivery_id ?? '' },
      data: { claimedUntil: new Date(Date.now() - 1000) },
    });
    await reconcileOnce(sql.deps(), { horizonMs: 0 });
    expect(
      await liveJob(inspect, 'delivery', { delivery_id: claimed?.delivery_id ?? '', attempt: 0 }),
    ).toBeDefined();
    // Heads not due now are never claimed.
    const later = await sql.activity(await h.lead(), 'started');
    const { rows: again } = await pool.query<{ r: { claimed: unknown[] } }>(
      'SELECT webhook_fan_out_claim($1, now(), 60000, 5, 300) AS r',
      [later],
    );
    expect(again[0]?.r.claimed).toEqual([]);
    // A claim needs a lease: without one the head would be open to every sender.
    await expect(
      pool.query('SELECT webhook_fan_out($1, now(), 0, 1)', [
        await sql.activity(await h.lead(), 'started'),
      ]),
    ).rejects.toThrow(/claims need a lease/);
  });

  it("a fan-out's claimed step is webhook_claim's step for the same delivery; only chain heads are claimed", async () => {
    const sub = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    // Two open activities of one lead, fanned out together: one chain of two.
    const first = await sql.activity(leadId, 'started', new Date(Date.now() - 1000));
    const second = await sql.activity(leadId, 'message_sent');
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
    expect(await sql.claimAlone(String(step.delivery_id))).toEqual(step);
  });

  it("fans out a batch as each activity alone: a lead newest first, answers in the items' order", async () => {
    const subs = [
      await h.subscription({ url: 'http://127.0.0.1:9/a' }),
      await h.subscription({ url: 'http://127.0.0.1:9/b' }),
    ];
    const lead1 = await h.lead();
    const t = Date.now() - 60_000;
    const [a1, a2, a3] = [
      await sql.activity(lead1, 'started', new Date(t)),
      await sql.activity(lead1, 'message_sent', new Date(t + 1)),
      await sql.activity(lead1, 'interested', new Date(t + 2)),
    ];
    const b1 = await sql.activity(await h.lead(), 'started');
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
    for (const lead of leads)
      for (let i = 0; i < 3; i++) ids.push(await sql.activity(lead, 'started'));
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
});
