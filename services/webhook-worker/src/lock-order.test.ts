import { newId } from '@leadhook/db';
import { useHarness } from '@leadhook/testkit';
import { Harness } from './testing/harness.js';

// Fan-out batches and record batches at once, on subscriptions that fail and
// recover (so record batches write their rows) and that different leads select
// differently (so a fan-out batch share-locks different sets item by item): the
// lock orders of prisma/functions/webhook/ (webhook_record_attempts.sql,
// webhook_fan_out_claims.sql) leave no cycle, so
// PostgreSQL never has to break one.

const h = useHarness(() => Harness.create({ poolMax: 8 }));

/** `n` activities of the lead with their open outbox rows, in one statement. */
async function activities(leadId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId('activity'));
  await h.pool.query(
    `WITH a AS (
       INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data, occurred_at)
       SELECT id, $2, $3, 'event', 'message_sent', '', '{}', now() + n * interval '1 millisecond'
         FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)
       RETURNING id)
     INSERT INTO outbox (topic, payload) SELECT 'activity', jsonb_build_object('activity_id', id) FROM a`,
    [ids, h.accountId, leadId],
  );
  return ids;
}

const shuffled = <T>(xs: T[]): T[] =>
  xs
    .map((x) => ({ x, k: Math.random() }))
    .sort((a, b) => a.k - b.k)
    .map(({ x }) => x);

describe('lock order', () => {
  it('fan-out batches and record batches never deadlock, with subscriptions failing and recovering', async () => {
    // Two playbooks, each selected by two of four subscriptions whose ids
    // interleave (A: s1, s3; B: s2, s4), so a fan-out of an A lead and one of a B
    // lead share-lock crossing sets, and record batches write them in id order.
    const playbookB = (await h.playbook()).playbookId;
    const subs: string[] = [];
    for (let i = 0; i < 4; i++) {
      subs.push(
        (
          await h.subscription({
            url: `http://127.0.0.1:9/s${i}`,
            playbookId: i % 2 === 0 ? h.playbookId : playbookB,
          })
        ).id,
      );
    }
    const pending: string[] = [];
    for (let i = 0; i < 60; i++) {
      const lead = await h.lead(i % 2 === 0 ? {} : { playbookId: playbookB });
      pending.push(...(await activities(lead, 3)));
    }

    const deadlocks: unknown[] = [];
    const onError = (err: unknown) => {
      if ((err as { code?: string }).code === '40P01') deadlocks.push(err);
      else throw err;
    };
    let records = 0;
    const deadline = Date.now() + 4000;

    const fanOuts = async () => {
      while (pending.length > 0 && Date.now() < deadline) {
        const batch = shuffled(pending.splice(0, 8));
        await h.pool
          .query('SELECT r.item FROM webhook_fan_out_claims($1, now(), 60000) r', [
            JSON.stringify(batch.map((id) => ({ activity_id: id, first_delay_ms: 0, claim: 0 }))),
          ])
          .catch(onError);
      }
    };
    const recorder = async () => {
      while (Date.now() < deadline) {
        // Claim a few due heads, then record them at once: each item fails or
        // succeeds at random, so failing_since is set and cleared all the time.
        const { rows: heads } = await h.pool.query<{ id: string; attempt_count: number }>(
          `SELECT id, attempt_count FROM deliveries
            WHERE status = 'pending' AND NOT queued
              AND (claimed_until IS NULL OR claimed_until < now())
            ORDER BY random() LIMIT 8`,
        );
        const claimed: { id: string; attempt: number }[] = [];
        for (const head of heads) {
          const { rows } = await h.pool.query<{ claim: string }>(
            'SELECT claim FROM webhook_claim($1, $2, now(), 60000)',
            [head.id, head.attempt_count],
          );
          if (rows[0]?.claim === 'claimed')
            claimed.push({ id: head.id, attempt: head.attempt_count });
        }
        if (claimed.length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        const items = claimed.map((c) => {
          const ok = Math.random() < 0.5;
          return {
            delivery_id: c.id,
            attempt: c.attempt,
            attempt_id: newId('attempt'),
            attempted_at: new Date(),
            ok,
            status_code: ok ? 204 : 500,
            duration_ms: 1,
            error: ok ? null : 'unexpected status 500',
            response_body: '',
            retry_delay_ms: 0,
            continue: false,
          };
        });
        await h.pool
          .query('SELECT r.item FROM webhook_record_attempts($1, now(), 432000000, 60000) r', [
            JSON.stringify(items),
          ])
          .then(() => {
            records += items.length;
          })
          .catch(onError);
      }
    };

    await Promise.all([fanOuts(), fanOuts(), recorder(), recorder(), recorder()]);
    expect(records).toBeGreaterThan(50);
    expect(deadlocks).toEqual([]);
  }, 30_000);
});
