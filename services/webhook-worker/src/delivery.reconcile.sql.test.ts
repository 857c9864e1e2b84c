import { liveJob } from '@leadhook/queue';
import { reconcileOnce } from './reconciler.js';
import * as sql from './testing/delivery-sql.js';
import { h, inspect, pool, useDeliverySql } from './testing/delivery-sql.js';

// The reconciler's query (reconcileOnce) over the queued flag that keeps a chain's
// waiting deliveries out of its way, with no worker running.

useDeliverySql();

describe('the delivery functions', () => {
  it('the reconciler enqueues due heads only, not the backlog behind a retrying head', async () => {
    const dead = await h.subscription({ url: 'http://127.0.0.1:9/dead' });
    const leadId = await h.lead();
    const t = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(await sql.activity(leadId, 'message_sent', new Date(t + i)));
    await sql.fanOut(ids.at(-1) ?? '');
    const chain = await h.prisma.delivery.findMany({
      where: { leadId, subscriptionId: dead.id },
      include: { activity: true },
      orderBy: { activity: { occurredAt: 'asc' } },
    });
    expect(chain.filter((d) => d.queued)).toHaveLength(29);
    const [head, second] = chain;
    if (!head || !second) throw new Error('no chain');

    // The head is due: the reconciler enqueues it (and only it).
    expect(await reconcileOnce(sql.deps(), { horizonMs: 5000 })).toBe(1);
    expect(await liveJob(inspect, 'delivery', { delivery_id: head.id, attempt: 0 })).toBeDefined();

    // The head fails and waits for its retry in an hour: nothing is due.
    await pool.query(
      `UPDATE deliveries SET attempt_count = 1, next_attempt_at = now() + interval '1 hour'
        WHERE id = $1`,
      [head.id],
    );
    expect(await reconcileOnce(sql.deps(), { horizonMs: 5000 })).toBe(0);

    // Redelivering a later one (the API resets its row) makes it a candidate, but
    // it is not its chain's head, so it is still not enqueued.
    await h.prisma.delivery.update({
      where: { id: second.id },
      data: { status: 'failed', queued: false },
    });
    await pool.query('SELECT webhook_redeliver($1, $2, now())', [second.id, h.accountId]);
    expect((await sql.row(second.id)).queued).toBe(false);
    expect(await reconcileOnce(sql.deps(), { horizonMs: 5000 })).toBe(0);
  });
});
