#!/usr/bin/env node
// PostgreSQL CPU of the webhook worker's batch functions at a table size: does a
// fan-out or a record cost more once the tables hold a history?
//
// Against a scratch database with 3 subscriptions (events ["*"]): first HISTORY
// earlier leads, each with PER-LEAD activities a day old, every one delivered to
// every subscription ('succeeded', one attempt row), with their outbox rows done;
// then LEADS new leads with PER-LEAD activities each and open outbox rows; then
// VACUUM ANALYZE, so the plans are made with statistics that say "many
// deliveries, few pending". From one connection, as the worker calls them under
// load: webhook_fan_out_claims with the new activities BATCH at a time in lead
// order (each item may claim 4 heads), then webhook_record_attempts with a 204
// for 16 claimed deliveries at a time, each claiming its chain's next, until
// every chain is done. Reports the backend's CPU (from /proc) per activity
// fanned out and per delivery recorded.
//
// Run it with --history 0 and with a history: the two should be about the same.
// (Before the record batch read its deliveries by key, see
// prisma/functions/webhook/webhook_record_attempts.sql: with 20,000 leads of
// history, recording cost 0.55 ms per delivery against 0.12 ms without.)
//
// --past-months N creates the history tables' monthly partitions of the N months
// before this one first (docs/operations.md, "History partitions"): the keyed
// reads then run with a year of months present, as a deployment keeping a year.
//
// Usage: node bench/webhooks/size-cost.mjs [--history 20000] [--leads 300]
//          [--per-lead 10] [--batch 8] [--past-months 0]   (pnpm build first)
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { benchArgs, cpuSeconds, createBenchTenant, fakeId, scratchDatabase, sql } from '../lib.mjs';
import { insertLeadsWithActivities, recordChains } from './chains.mjs';

const args = benchArgs({ history: 20_000, leads: 300, 'per-lead': 10, batch: 8, 'past-months': 0 });
const { history: HISTORY, leads: LEADS, 'per-lead': PER_LEAD, batch: BATCH } = args;
const scratch = scratchDatabase(`leadhook_bench_size_${randomBytes(3).toString('hex')}`);
const dbUrl = scratch.url;

const c = new pg.Client({ connectionString: dbUrl });
try {
  await scratch.setUp();
  const { accountId, playbookId, sourceId } = await createBenchTenant(dbUrl);
  await sql(
    dbUrl,
    `SELECT leadhook_history_partitions_ensure(now() - make_interval(months => $1), now())`,
    [args['past-months']],
  );
  for (let i = 0; i < 3; i++) {
    await sql(
      dbUrl,
      `INSERT INTO subscriptions (id, account_id, url, events, outcomes, secret)
       VALUES ($1, $2, 'http://127.0.0.1:9/hook', '{*}', '{*}', $3)`,
      [fakeId('sub'), accountId, `whsec_${randomBytes(32).toString('base64')}`],
    );
  }
  await c.connect();

  const tenant = { accountId, playbookId, sourceId };
  /** `n` leads with PER_LEAD activities each; a history's are delivered already. */
  async function addLeads(n, history) {
    const activityIds = await insertLeadsWithActivities(c, tenant, {
      leadCount: n,
      perLead: PER_LEAD,
      delivered: history,
    });
    if (history) {
      await c.query(
        `INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, activity_occurred_at,
                                 status, attempt_count, last_attempt_at)
         SELECT leadhook_new_id('dlv'), a.id, s.id, a.lead_id, a.occurred_at, 'succeeded', 1,
                a.occurred_at
           FROM activities a CROSS JOIN subscriptions s
          WHERE a.id = ANY ($1)`,
        [activityIds],
      );
      await c.query(
        `INSERT INTO attempts (id, delivery_id, attempted_at, status_code, duration_ms)
         SELECT leadhook_new_id('att'), d.id, d.last_attempt_at, 204, 3
           FROM deliveries d WHERE d.activity_id = ANY ($1)`,
        [activityIds],
      );
    }
    return activityIds;
  }

  for (let done = 0; done < HISTORY; done += 5000) {
    await addLeads(Math.min(5000, HISTORY - done), true);
  }
  const activities = await addLeads(LEADS, false);
  await c.query('VACUUM ANALYZE');
  const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;

  const cpu0 = cpuSeconds([pid]);
  const claimed = [];
  for (let i = 0; i < activities.length; i += BATCH) {
    const items = activities
      .slice(i, i + BATCH)
      .map((id) => ({ activity_id: id, first_delay_ms: 0, claim: 4 }));
    const { rows } = await c.query(
      'SELECT r.result FROM webhook_fan_out_claims($1, now(), 20000) r',
      [JSON.stringify(items)],
    );
    for (const row of rows) claimed.push(...(row.result.claimed ?? []));
  }
  const cpu1 = cpuSeconds([pid]);
  const deliveries = await recordChains(c, claimed, 16);
  const cpu2 = cpuSeconds([pid]);
  const expected = activities.length * 3;
  process.stdout.write(
    `history ${HISTORY} leads (${HISTORY * PER_LEAD * 3} deliveries), ` +
      `${args['past-months']} past months of partitions: ` +
      `fan-out ${(((cpu1 - cpu0) * 1000) / activities.length).toFixed(3)} ms CPU per activity ` +
      `(batches of ${BATCH}); record ${(((cpu2 - cpu1) * 1000) / deliveries).toFixed(3)} ms CPU ` +
      `per delivery (${deliveries} of ${expected} recorded)\n`,
  );
  if (deliveries !== expected) process.exitCode = 1;
} finally {
  await c.end().catch(() => {});
  await scratch.drop();
}
