import { rowsRead } from '@leadhook/testkit';
import pg from 'pg';
import * as sql from './testing/delivery-sql.js';
import { h, pool, useDeliverySql } from './testing/delivery-sql.js';

// The hot path's SQL functions (prisma/functions/webhook/) keep their settings and
// read deliveries by key at any table size, with no worker running.

useDeliverySql();

describe('the delivery functions', () => {
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
});

// Last in the file: these tests leave large, analyzed tables behind them, and
// the tests above plan on small ones.
describe('the delivery functions at any table size', () => {
  beforeAll(async () => {
    // Statistics change only where a test says ANALYZE: an autovacuum analyze
    // between growing a table and the calls measured would re-plan them and let
    // a plan that reads the whole table go unseen. deliveries is partitioned by
    // month (docs/operations.md, "History partitions"): the setting is each partition's.
    await pool.query(`DO $$
      DECLARE p regclass;
      BEGIN
        FOR p IN SELECT relid FROM pg_partition_tree('deliveries') WHERE isleaf LOOP
          EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', p);
        END LOOP;
      END $$`);
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
      expect(await sql.fanOutAndWalk(client)).toBe(8);
      await sql.backlog(subscriptionId, 20_000, 'succeeded');
      await client.query('BEGIN');
      expect(await sql.fanOutAndWalk(client)).toBe(8);
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
    await sql.backlog(subscriptionId, 20_000, 'succeeded');
    await pool.query('ANALYZE deliveries');
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      expect(await sql.fanOutAndWalk(client)).toBe(8);
      await sql.backlog(subscriptionId, 20_000);
      await client.query('BEGIN');
      expect(await sql.fanOutAndWalk(client)).toBe(8);
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
