import { rowsRead } from '@leadhook/testkit';
import pg from 'pg';
import * as sql from './testing/delivery-sql.js';
import { h, pool, useDeliverySql } from './testing/delivery-sql.js';

// webhook_record_attempt and webhook_record_attempts, an attempt's outcome and the
// claim of the chain's next delivery (prisma/functions/webhook/), on their own with no
// worker running.

useDeliverySql();

/** Two chains of two deliveries on one subscription, each chain's head claimed. */
async function twoClaimedChains() {
  const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
  const [a1, a2] = await sql.chainOf(subscriptionId, 2);
  const [b1, b2] = await sql.chainOf(subscriptionId, 2);
  if (!a1 || !a2 || !b1 || !b2) throw new Error('no chains');
  for (const id of [a1, b1]) expect((await sql.claim(id))?.claim).toBe('claimed');
  return { subscriptionId, a1, a2, b1, b2 };
}

describe('the delivery functions', () => {
  it('records a batch as each attempt alone: each item answered by its position, chains go on, failures retry', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const [a1, a2] = await sql.chainOf(subscriptionId, 2);
    const [b1, b2] = await sql.chainOf(subscriptionId, 2);
    const [c1] = await sql.chainOf(subscriptionId, 1);
    if (!a1 || !a2 || !b1 || !b2 || !c1) throw new Error('no chains');
    for (const id of [a1, b1, c1]) expect((await sql.claim(id))?.claim).toBe('claimed');

    const steps = await sql.recordBatch([
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

    expect(await sql.row(c1)).toMatchObject({
      status: 'pending',
      attemptCount: 1,
      claimedUntil: null,
    });
    expect(await sql.row(a1)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(await sql.row(a2)).toMatchObject({ status: 'pending', queued: false });
    expect((await sql.row(a2)).claimedUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(await sql.row(b2)).toMatchObject({ queued: false, claimedUntil: null });
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
    const [a1, a2] = await sql.chainOf(subscriptionId, 2);
    const [b1, b2] = await sql.chainOf(subscriptionId, 2);
    const [c1] = await sql.chainOf(subscriptionId, 1);
    const [d1] = await sql.chainOf(subscriptionId, 1);
    if (!a1 || !a2 || !b1 || !b2 || !c1 || !d1) throw new Error('no chains');
    for (const id of [a1, b1, c1, d1]) expect((await sql.claim(id))?.claim).toBe('claimed');

    // In a transaction of its own, to see which functions it ran: set by set,
    // webhook_record_attempt is never called.
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    let steps: sql.RecordedStep[];
    let perItemCalls: number;
    try {
      await client.query(`SET track_functions = 'pl'`);
      await client.query('BEGIN');
      steps = await sql.recordBatch(
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
      expect(await sql.row(id)).toMatchObject({
        status: 'succeeded',
        attemptCount: 1,
        claimedUntil: null,
      });
    }
    expect(await sql.row(d1)).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect((await sql.row(d1)).claimedUntil).not.toBeNull();
    expect(await sql.row(a2)).toMatchObject({ status: 'pending', queued: false });
    expect((await sql.row(a2)).claimedUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(await sql.row(b2)).toMatchObject({
      status: 'pending',
      queued: false,
      claimedUntil: null,
    });
    // The claimed head comes with everything its send needs: webhook_claim's step.
    const [e1, e2] = await sql.chainOf(subscriptionId, 2);
    if (!e1 || !e2) throw new Error('no chain');
    expect((await sql.claim(e1))?.claim).toBe('claimed');
    const [recorded] = await sql.recordBatch([
      { delivery_id: e1, status_code: 200, response_body: 'ok' },
    ]);
    const e2Row = await sql.row(e2);
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
    expect({ ...recorded?.step, outcome: null }).toEqual(await sql.claimAlone(e2));
    const attempts = await h.prisma.attempt.findMany({
      where: { deliveryId: { in: [a1, b1, c1, d1] } },
    });
    expect(attempts.map((a) => a.deliveryId).sort()).toEqual([a1, b1, c1, d1].sort());

    // A subscriber that had been failing: item by item (its row is written
    // between its deliveries, as alone), and its failure clock stops.
    const failing = await h.subscription({ url: 'http://127.0.0.1:9/failing' });
    const [f1, f2] = await sql.chainOf(failing.id, 2);
    if (!f1 || !f2) throw new Error('no chain');
    expect((await sql.claim(f1))?.claim).toBe('claimed');
    await pool.query(
      `UPDATE subscriptions SET failing_since = now() - interval '1 day' WHERE id = $1`,
      [failing.id],
    );
    expect((await sql.recordBatch([{ delivery_id: f1 }]))[0]).toMatchObject({
      outcome: 'succeeded',
      claim: 'claimed',
      delivery_id: f2,
    });
    expect(
      (await h.prisma.subscription.findUniqueOrThrow({ where: { id: failing.id } })).failingSince,
    ).toBeNull();
  });

  it("a record's own claim of the next delivery returns webhook_claim's step, with the attempt's outcome", async () => {
    const { a1, a2, b1, b2 } = await twoClaimedChains();
    // A batch with a failure goes item by item: each is webhook_record_attempt's,
    // which claims the due next delivery itself. b1 fails with the schedule spent.
    const steps = await sql.recordBatch([
      { delivery_id: a1 },
      { delivery_id: b1, ok: false, status_code: 500, retry_delay_ms: null },
    ]);
    expect(steps[0]).toMatchObject({ outcome: 'succeeded', claim: 'claimed', delivery_id: a2 });
    expect(steps[1]).toMatchObject({ outcome: 'failed', claim: 'claimed', delivery_id: b2 });
    expect(await sql.row(b1)).toMatchObject({ status: 'failed', attemptCount: 1 });
    // Every other field of webhook_step is webhook_claim's for the same delivery.
    expect({ ...steps[0]?.step, outcome: null }).toEqual(await sql.claimAlone(a2));
    expect({ ...steps[1]?.step, outcome: null }).toEqual(await sql.claimAlone(b2));
  });

  it('a record hands on to the next delivery only when it is due, unleased and its subscription live', async () => {
    const { subscriptionId, a1, a2, b1, b2 } = await twoClaimedChains();
    // a2 is due in an hour (a redelivery scheduled later, say); b2 is leased elsewhere.
    await pool.query(
      `UPDATE deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = $1`,
      [a2],
    );
    await pool.query(
      `UPDATE deliveries SET claimed_until = now() + interval '1 minute' WHERE id = $1`,
      [b2],
    );
    const steps = await sql.recordBatch([{ delivery_id: a1 }, { delivery_id: b1 }]);
    expect(steps[0]).toMatchObject({ outcome: 'succeeded', claim: 'not_due', delivery_id: a2 });
    expect(steps[1]).toMatchObject({ outcome: 'succeeded', claim: 'busy', delivery_id: b2 });
    // Either way the next one is its chain's head now, for the reconciler to see.
    expect(await sql.row(a2)).toMatchObject({ queued: false, status: 'pending' });
    expect(await sql.row(b2)).toMatchObject({ queued: false, status: 'pending' });

    // A subscription disabled meanwhile: its next delivery is failed, not claimed.
    const [c1, c2] = await sql.chainOf(subscriptionId, 2);
    if (!c1 || !c2) throw new Error('no chain');
    expect((await sql.claim(c1))?.claim).toBe('claimed');
    await h.prisma.subscription.update({ where: { id: subscriptionId }, data: { enabled: false } });
    expect((await sql.recordBatch([{ delivery_id: c1 }]))[0]).toMatchObject({
      outcome: 'succeeded',
      claim: 'subscription_disabled',
    });
    expect(await sql.row(c2)).toMatchObject({ status: 'failed' });
  });

  it('records by key lookups, also with plans a session made while the tables were small', async () => {
    // A plain join of the items with deliveries was planned on a new database as
    // a scan of deliveries (a hash join, or a merge join over the whole primary
    // key), kept by the session: a scan of deliveries per record call
    // (bench/RESULTS.md, "Reading the runs of 00:48–00:57";
    // prisma/functions/webhook/webhook_record_attempts.sql).
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const chain = await sql.chainOf(subscriptionId, 10);
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      expect((await sql.claim(chain[0] ?? ''))?.claim).toBe('claimed');
      for (const id of chain.slice(0, 7)) {
        expect((await sql.recordBatch([{ delivery_id: id }], client))[0]?.claim).toBe('claimed');
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
        expect((await sql.recordBatch([{ delivery_id: id }], client))[0]?.outcome).toBe(
          'succeeded',
        );
      }
      expect(await rowsRead(client, 'deliveries')).toBeLessThan(200);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });
});
