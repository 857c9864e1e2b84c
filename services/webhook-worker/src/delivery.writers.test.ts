import { newId } from '@leadhook/db';
import { useHarness } from '@leadhook/testkit';
import { Harness } from './testing/harness.js';

// Every function that moves a delivery's status (prisma/functions/webhook/)
// writes the rest of the row's state with it: a row that leaves pending keeps
// no lease and no place in a queue, and one that re-enters pending is unqueued
// (a chain's head is never left queued). No trigger does it for them, so a
// Prisma update of `status` alone would leave the row inconsistent: the API
// resets rows through webhook_redeliver and webhook_recover.

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

/** A chain of two deliveries, as fan-out leaves it: the head leased, the other queued behind it. */
async function chainOfTwo() {
  const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
  const leadId = await h.lead();
  const ids: string[] = [];
  const t = Date.now() - 60_000;
  for (const [i, label] of ['started', 'interested'].entries()) {
    const activityId = await h.openActivity(leadId, label, new Date(t + i));
    await h.pool.query('SELECT webhook_fan_out($1, now(), 0)', [activityId]);
    const d = await h.prisma.delivery.findFirstOrThrow({ where: { activityId } });
    ids.push(d.id);
  }
  const [head = '', behind = ''] = ids;
  await h.pool.query('SELECT claim FROM webhook_claim($1, 0, now(), 60000)', [head]);
  return { subscriptionId, leadId, head, behind };
}

const state = async (id: string) => {
  const d = await h.prisma.delivery.findUniqueOrThrow({ where: { id } });
  return { status: d.status, queued: d.queued, leased: d.claimedUntil !== null };
};

describe('the writers of delivery state', () => {
  it('webhook_disable fails the pending deliveries unqueued, their leases ended', async () => {
    const { subscriptionId, head, behind } = await chainOfTwo();
    expect([await state(head), await state(behind)]).toEqual([
      { status: 'pending', queued: false, leased: true },
      { status: 'pending', queued: true, leased: false },
    ]);
    await h.pool.query(
      `SELECT webhook_disable($1, 'gone', 'The endpoint answered 410 Gone.', now())`,
      [subscriptionId],
    );
    expect([await state(head), await state(behind)]).toEqual([
      { status: 'failed', queued: false, leased: false },
      { status: 'failed', queued: false, leased: false },
    ]);
  });

  it("webhook_claim fails a disabled subscription's deliveries likewise", async () => {
    const { subscriptionId, head, behind } = await chainOfTwo();
    await h.prisma.subscription.update({ where: { id: subscriptionId }, data: { enabled: false } });
    const { rows } = await h.pool.query<{ claim: string }>(
      'SELECT claim FROM webhook_claim($1, 0, now(), 60000)',
      [behind],
    );
    expect(rows[0]?.claim).toBe('subscription_disabled');
    expect([await state(head), await state(behind)]).toEqual([
      { status: 'failed', queued: false, leased: false },
      { status: 'failed', queued: false, leased: false },
    ]);
  });

  it('webhook_record_attempt leaves a finished delivery unqueued', async () => {
    const { head } = await chainOfTwo();
    // Queued while in flight: an older activity's delivery appeared meanwhile.
    await h.pool.query('UPDATE deliveries SET queued = true WHERE id = $1', [head]);
    await h.pool.query(
      `SELECT outcome FROM webhook_record_attempt(
         $1, 0, $2, now(), now(), true, 204, 3, NULL, '', NULL, 432000000, false, 60000)`,
      [head, newId('attempt')],
    );
    expect(await state(head)).toEqual({ status: 'succeeded', queued: false, leased: false });
  });

  it('webhook_redeliver unqueues a row that re-enters pending; a pending one keeps its place and lease', async () => {
    const { subscriptionId, head, behind } = await chainOfTwo();
    const redeliver = async (id: string, accountId = h.accountId) => {
      const { rows } = await h.pool.query<{ found: boolean }>(
        'SELECT webhook_redeliver($1, $2, now()) AS found',
        [id, accountId],
      );
      return rows[0]?.found;
    };
    expect(await redeliver(behind)).toBe(true);
    expect([await state(head), await state(behind)]).toEqual([
      { status: 'pending', queued: false, leased: true },
      { status: 'pending', queued: true, leased: false },
    ]);
    // Failed while queued (a test's update of status alone), then redelivered.
    await h.prisma.delivery.update({ where: { id: behind }, data: { status: 'failed' } });
    expect(await redeliver(behind)).toBe(true);
    expect(await state(behind)).toEqual({ status: 'pending', queued: false, leased: false });
    expect(await redeliver(behind, 'acc_not_the_owner')).toBe(false);
    await h.prisma.subscription.update({
      where: { id: subscriptionId },
      data: { deletedAt: new Date() },
    });
    expect(await redeliver(behind)).toBe(false);
  });

  it('webhook_recover resets the failed deliveries since a time, unqueued, one row each', async () => {
    const { subscriptionId, leadId, head, behind } = await chainOfTwo();
    await h.prisma.delivery.updateMany({
      where: { id: { in: [head, behind] } },
      data: { status: 'failed', claimedUntil: null },
    });
    const { rows } = await h.pool.query<{ lead_id: string }>(
      `SELECT lead_id FROM webhook_recover($1, now() - interval '1 hour', now())`,
      [subscriptionId],
    );
    expect(rows).toEqual([{ lead_id: leadId }, { lead_id: leadId }]);
    expect([await state(head), await state(behind)]).toEqual([
      { status: 'pending', queued: false, leased: false },
      { status: 'pending', queued: false, leased: false },
    ]);
    const again = await h.pool.query(
      `SELECT lead_id FROM webhook_recover($1, now() - interval '1 hour', now())`,
      [subscriptionId],
    );
    expect(again.rows).toEqual([]);
  });
});
