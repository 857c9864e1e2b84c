import { jobsOf, liveJob } from '@leadhook/queue';
import { reconcileOnce } from './reconciler.js';
import * as sql from './testing/delivery-sql.js';
import { h, inspect, pool, useDeliverySql } from './testing/delivery-sql.js';

// webhook_claim and webhook_release, a delivery's lease (prisma/functions/webhook/),
// on their own with no worker running.

useDeliverySql();

describe('the delivery functions', () => {
  it('a claim is a lease: a second claim waits for it, the reconciler leaves it alone', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const t = Date.now() - 10_000;
    const a = await sql.activity(leadId, 'started', new Date(t));
    const b = await sql.activity(leadId, 'interested', new Date(t + 1));
    await sql.fanOut(b);
    const [head, next] = await Promise.all(
      [a, b].map((activityId) =>
        h.prisma.delivery.findUniqueOrThrow({
          where: { activityId_subscriptionId: { activityId, subscriptionId } },
        }),
      ),
    );
    if (!head || !next) throw new Error('no deliveries');

    expect((await sql.claim(head.id))?.claim).toBe('claimed');
    const second = await sql.claim(head.id);
    expect(second?.claim).toBe('busy');
    expect(second?.due_at?.getTime()).toBeGreaterThan(Date.now() + 50_000);
    // The waiting delivery is not its chain's head: claiming it names the head.
    expect(await sql.claim(next.id)).toMatchObject({ claim: 'not_head', delivery_id: head.id });
    expect((await sql.row(next.id)).queued).toBe(true);

    // Neither the leased head nor the queued one is the reconciler's to enqueue.
    await reconcileOnce(sql.deps(), { horizonMs: 5000 });
    expect(await jobsOf(inspect, 'delivery', { delivery_id: head.id, attempt: 0 })).toEqual([]);
    expect(await jobsOf(inspect, 'delivery', { delivery_id: next.id, attempt: 0 })).toEqual([]);

    // Recording the head's success hands the chain on: with goOn the next one is claimed at once.
    expect(await sql.succeed(head.id, true)).toMatchObject({
      outcome: 'succeeded',
      claim: 'claimed',
      delivery_id: next.id,
    });
    expect(await sql.row(head.id)).toMatchObject({ status: 'succeeded', claimedUntil: null });
    expect(await sql.row(next.id)).toMatchObject({ queued: false, status: 'pending' });
    expect((await sql.row(next.id)).claimedUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(await sql.succeed(next.id, false)).toMatchObject({ outcome: 'succeeded', claim: null });
  });

  it('a release hands the lease of its own attempt back, to a claim and to the reconciler, and nothing else', async () => {
    const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
    const leadId = await h.lead();
    const a = await sql.activity(leadId, 'started', new Date(Date.now() - 10_000));
    await sql.fanOut(a);
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

    expect((await sql.claim(id))?.claim).toBe('claimed');
    // Another attempt's release (one gone stale) leaves the lease alone.
    expect(await release(1)).toBe(false);
    expect((await sql.claim(id))?.claim).toBe('busy');
    // So does a release by a worker whose own lease ended before this one began
    // (it stalled; another worker claimed the same attempt after the lapse).
    expect(await release(0, "now() + interval '30 seconds'")).toBe(false);
    expect((await sql.claim(id))?.claim).toBe('busy');

    expect(await release(0)).toBe(true);
    // The row is as the claim found it: same attempt, due, its chain's head.
    expect(await sql.row(id)).toMatchObject({
      status: 'pending',
      attemptCount: 0,
      claimedUntil: null,
      queued: false,
    });
    expect(await h.prisma.attempt.count({ where: { deliveryId: id } })).toBe(0);
    await reconcileOnce(sql.deps(), { horizonMs: 5000 });
    expect((await liveJob(inspect, 'delivery', { delivery_id: id, attempt: 0 }))?.data).toEqual({
      delivery_id: id,
      attempt: 0,
    });
    expect((await sql.claim(id))?.claim).toBe('claimed');

    // A finished delivery has no lease to give back.
    expect(await sql.succeed(id, false)).toMatchObject({ outcome: 'succeeded' });
    expect(await release(0)).toBe(false);
    expect(await sql.row(id)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
  });
});
