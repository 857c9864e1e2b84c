#!/usr/bin/env node
// PostgreSQL CPU of the webhook worker's SQL functions on their own
// (prisma/functions/webhook/), from one connection, one call at a time: no
// worker, no Redis, no HTTP. Against a scratch database: LEADS leads × PER-LEAD
// activities × SUBSCRIBERS subscriptions; every activity fanned out (webhook_fan_out), then
// every chain drained as the worker does (webhook_claim on its head, then
// webhook_record_attempt with a 204 that claims the next delivery). Reports the
// backend's CPU (from /proc) per activity and per delivery, with the session's
// synchronous_commit as the server has it, and again with it off: the difference
// is what each commit's WAL flush costs in CPU.
//
// With --batch N, attempts are recorded N at a time in one call of
// webhook_record_attempts, as the worker records them under load.
//
// With --claim, each fan-out also claims the chain heads it creates
// (webhook_fan_out_claim, as the worker asks when it has free send slots), and
// the fan-out's figure includes those claims; without it the heads are claimed
// by webhook_claim, counted with the deliveries. --per-lead 1 --claim is
// bench/e2e's shape: one activity per lead, sent as soon as it is fanned out.
//
// Usage: node bench/webhooks/sql-cost.mjs [--leads 200] [--per-lead 10] [--subscribers 3]
//                                         [--batch 1] [--claim]
//        (pnpm build first)
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  adminUrl,
  benchArgs,
  cpuSeconds,
  createBenchTenant,
  scratchDatabase,
  sql,
  tableReads,
} from '../lib.mjs';
import { insertLeadsWithActivities, recordChains } from './chains.mjs';

const args = benchArgs(
  { leads: 200, batch: 1, 'per-lead': 10, subscribers: 3 },
  { claim: { type: 'boolean', default: false } },
);
const { leads: leadCount, batch, 'per-lead': PER_LEAD, claim: CLAIM } = args;
const id = (prefix) => `${prefix}_${randomBytes(13).toString('hex').slice(0, 26)}`;

async function measure(asyncCommit) {
  const scratch = scratchDatabase(`leadhook_bench_sqlcost_${randomBytes(3).toString('hex')}`);
  const dbUrl = scratch.url;
  const c = new pg.Client({ connectionString: dbUrl });
  try {
    await scratch.setUp();
    const tenant = await createBenchTenant(dbUrl);
    await c.connect();
    for (let i = 0; i < args.subscribers; i++) {
      await c.query(
        `INSERT INTO subscriptions (id, account_id, url, events, outcomes, secret)
         VALUES ($1, $2, 'http://127.0.0.1:9/hook', '{*}', '{*}', 'whsec_AAAA')`,
        [id('sub'), tenant.accountId],
      );
    }
    const activities = await insertLeadsWithActivities(c, tenant, { leadCount, perLead: PER_LEAD });
    if (asyncCommit) await c.query('SET synchronous_commit = off');
    const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;

    const cpu0 = cpuSeconds([pid]);
    const heads = [];
    const claimedByFanOut = [];
    for (const activity of activities) {
      const { rows } = await c.query(
        CLAIM
          ? 'SELECT webhook_fan_out_claim($1, now(), 0, 64, 20000) AS r'
          : 'SELECT webhook_fan_out($1, now(), 0) AS r',
        [activity],
      );
      for (const head of rows[0].r.heads ?? []) heads.push(head.id);
      for (const step of rows[0].r.claimed ?? []) claimedByFanOut.push(step);
    }
    const cpu1 = cpuSeconds([pid]);
    // The heads the fan-outs left, claimed as a delivery job claims them.
    const claimed = [...claimedByFanOut];
    for (const head of heads) {
      const { rows } = await c.query('SELECT * FROM webhook_claim($1, 0, now(), 20000)', [head]);
      if (rows[0]?.claim === 'claimed') claimed.push(rows[0]);
    }
    let deliveries = 0;
    if (batch <= 1) {
      for (let step of claimed) {
        while (step?.claim === 'claimed') {
          ({
            rows: [step],
          } = await c.query(
            `SELECT * FROM webhook_record_attempt($1, $2, $3, now(), now(), true, 204, 3, NULL, '',
                                                  NULL, 432000000, true, 20000)`,
            [step.delivery_id, step.attempt_count, id('att')],
          ));
          deliveries++;
        }
      }
    } else {
      // As the worker records: the attempts of many chains in one call.
      deliveries = await recordChains(c, claimed, batch);
    }
    const cpu2 = cpuSeconds([pid]);
    await c.query('SELECT pg_stat_force_next_flush()');
    const scans = await tableReads(dbUrl, ['activities', 'deliveries', 'outbox', 'subscriptions']);
    process.stdout.write(
      `  seq scans: ${scans.map((t) => `${t.relname} ${t.seq_scan} (${t.seq_read} rows)`).join(', ')}\n`,
    );
    return {
      fanOut: ((cpu1 - cpu0) * 1000) / activities.length,
      delivery: ((cpu2 - cpu1) * 1000) / deliveries,
      deliveries,
    };
  } finally {
    await c.end().catch(() => {});
    await scratch.drop();
  }
}

const [{ synchronous_commit: setting }] = await sql(adminUrl, 'SHOW synchronous_commit');
for (const asyncCommit of [false, true]) {
  const r = await measure(asyncCommit);
  process.stdout.write(
    `synchronous_commit ${asyncCommit ? 'off' : setting}: fan-out ${r.fanOut.toFixed(2)} ms CPU per activity; ` +
      `${CLAIM ? 'record (and claims of heads the fan-out left)' : 'claim + record'} ` +
      `${r.delivery.toFixed(2)} ms CPU per delivery (${r.deliveries} deliveries)\n`,
  );
}
