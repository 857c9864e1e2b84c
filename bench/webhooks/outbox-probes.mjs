#!/usr/bin/env node
// What the outbox's consumers and relay cost PostgreSQL per call, in buffers and
// time, with days of outbox kept: the fan-out's probe of a lead's open activity
// rows (prisma/functions/webhook/webhook_fan_out.sql), the enrollment's close of
// a lead's rows (playbook/playbook_enroll.sql) and the relay's claim
// (packages/queue/src/outbox-relay.ts). The outbox is partitioned by day
// (docs/operations.md, "Outbox partitions"); run it against the migrations
// before that too (--migrations, e.g. `git archive <commit> prisma/migrations`
// unpacked somewhere) to compare the two layouts on the same rows.
//
// Against a scratch database with 3 subscriptions: DAYS days before today, each
// with PER-DAY activities (10 a lead) whose outbox rows are closed, written on
// their day, and their leads' closed enrollment rows; then LEADS new leads of
// today, each with 8 activities and an enrollment row, all open; then VACUUM
// ANALYZE. From one connection, with generic plans (as the functions run them):
// EXPLAIN (ANALYZE, BUFFERS) of the probe alone, of webhook_fan_out of each new
// lead's last activity (which fans out all 8), of the enrollment's UPDATE, and
// of the relay's claim of 100 due enrollment rows. Reports the median over the
// new leads after the first five (plan caching) of shared buffers (hit + read)
// and execution time.
//
// Usage: node bench/webhooks/outbox-probes.mjs [--days 10] [--per-day 20000]
//          [--leads 40] [--migrations <dir>]   (pnpm build first)
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../packages/db/dist/index.js';
import { adminUrl, benchArgs, createBenchTenant, fakeId, root, sql } from '../lib.mjs';

const args = benchArgs(
  { days: 10, 'per-day': 20_000, leads: 40 },
  { migrations: { type: 'string', default: `${root}/prisma/migrations` } },
);
const { days: DAYS, 'per-day': PER_DAY, leads: LEADS } = args;
const name = `leadhook_bench_outbox_${randomBytes(3).toString('hex')}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();

/** The fan-out's probe (webhook_fan_out's `open`), in each layout's form. */
const probe = (partitioned) => `
  SELECT o.outbox_id, a.id
    FROM activities a
    CROSS JOIN LATERAL (
      SELECT b.id AS outbox_id FROM outbox b
       WHERE b.topic = 'activity' AND b.done_at IS NULL
         ${partitioned ? 'AND b.created_at = a.created_at AND b.created_at <= statement_timestamp()' : ''}
         AND b.payload->>'activity_id' = a.id
         FOR UPDATE) o
   WHERE a.lead_id = $1 AND a.occurred_at <= $2`;
/** playbook_enroll's close of the lead's rows. */
const close = (partitioned) => `
  UPDATE outbox SET done_at = now()
   WHERE topic = 'enrollment' AND payload->>'lead_id' = $1 AND done_at IS NULL
     ${partitioned ? 'AND created_at >= $2 AND created_at <= statement_timestamp()' : 'AND $2::timestamptz IS NOT NULL'}`;
/** The relay's claim of due enrollment rows. */
const claim = (partitioned) =>
  partitioned
    ? `UPDATE outbox o SET next_relay_at = now() + interval '10 s', relay_count = o.relay_count + 1
         FROM (SELECT id, created_at FROM outbox
                WHERE topic = 'enrollment' AND done_at IS NULL AND relay_count >= 0
                  AND next_relay_at <= now()
                ORDER BY next_relay_at LIMIT 100 FOR UPDATE SKIP LOCKED) due
        WHERE o.id = due.id AND o.created_at = due.created_at
        RETURNING o.id, o.payload`
    : `UPDATE outbox SET next_relay_at = now() + interval '10 s', relay_count = relay_count + 1
        WHERE id IN (SELECT id FROM outbox
                      WHERE topic = 'enrollment' AND done_at IS NULL AND relay_count >= 0
                        AND next_relay_at <= now()
                      ORDER BY next_relay_at LIMIT 100 FOR UPDATE SKIP LOCKED)
        RETURNING id, payload`;

/** Shared buffers (hit + read) and execution time (ms) of one EXPLAIN ANALYZE. */
async function explain(client, text, params) {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
  const [{ Plan: plan, 'Execution Time': ms }] = rows[0]['QUERY PLAN'];
  return { buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'], ms };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const c = new pg.Client({ connectionString: dbUrl });
try {
  await sql(adminUrl, `CREATE DATABASE ${name}`);
  await migrate({ databaseUrl: dbUrl, migrationsDir: args.migrations });
  const tenant = await createBenchTenant(dbUrl);
  await c.connect();
  const [{ partitioned }] = (
    await c.query(
      `SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'outbox'::regclass) AS partitioned`,
    )
  ).rows;
  if (partitioned) {
    await c.query(
      `SELECT count(*) FROM leadhook_outbox_partitions_ensure(now() - make_interval(days => $1), now())`,
      [DAYS],
    );
  }
  for (let i = 0; i < 3; i++) {
    await c.query(
      `INSERT INTO subscriptions (id, account_id, url, events, outcomes, secret)
       VALUES ($1, $2, 'http://127.0.0.1:9/hook', '{*}', '{*}', 'whsec_AAAA')`,
      [fakeId('sub'), tenant.accountId],
    );
  }

  /** `leads` leads made `daysAgo` days ago with 8 or 10 activities; rows closed unless today's. */
  async function addLeads(leads, perLead, daysAgo) {
    const leadIds = Array.from({ length: leads }, () => fakeId('lead'));
    const activityIds = Array.from({ length: leads * perLead }, () => fakeId('act'));
    const open = daysAgo === 0;
    await c.query(
      `WITH l AS (
         INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                            first_name, last_name, fields, canonical, tcpa_opt_in_token,
                            tcpa_opt_in_url, received_at, created_at)
         SELECT id, $2, $3, 'bench', $4, '+14155550100', 'bench@example.com', 'Bench', 'Lead',
                '{}', '{}', 'tok', 'https://quotes.example.com/consent',
                now() - make_interval(days => $5), now() - make_interval(days => $5)
           FROM unnest($1::text[]) AS t(id)
         RETURNING id, created_at)
       INSERT INTO outbox (topic, payload, created_at, next_relay_at, done_at)
       SELECT 'enrollment', jsonb_build_object('lead_id', id), created_at,
              created_at - interval '1 minute', CASE WHEN NOT $6 THEN created_at END
         FROM l`,
      [leadIds, tenant.accountId, tenant.sourceId, tenant.playbookId, daysAgo, open],
    );
    await c.query(
      `WITH a AS (
         INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note,
                                 data, occurred_at, created_at)
         SELECT id, $2, ($3::text[])[(n - 1) / $4 + 1], 'event', 'message_sent', 'bench', '{}',
                now() - make_interval(days => $5) + make_interval(secs => ((n - 1) % $4) / 1000.0),
                now() - make_interval(days => $5) + make_interval(secs => ((n - 1) % $4) / 1000.0)
           FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)
         RETURNING id, created_at)
       INSERT INTO outbox (topic, payload, created_at, done_at)
       SELECT 'activity', jsonb_build_object('activity_id', id), created_at,
              CASE WHEN NOT $6 THEN created_at END
         FROM a`,
      [activityIds, tenant.accountId, leadIds, perLead, daysAgo, open],
    );
    return { leadIds, activityIds };
  }

  for (let day = DAYS; day >= 1; day--) await addLeads(PER_DAY / 10, 10, day);
  const fresh = await addLeads(LEADS, 8, 0);
  await c.query('VACUUM ANALYZE');
  await c.query(`SET plan_cache_mode = force_generic_plan`);
  await c.query('SET enable_seqscan = off');

  await c.query(`PREPARE probe(text, timestamptz) AS ${probe(partitioned)}`);
  await c.query(`PREPARE close_rows(text, timestamptz) AS ${close(partitioned)}`);
  const figures = { probe: [], fanOut: [], close: [], claim: [] };
  /** EXPLAIN ANALYZE of `text` in a transaction rolled back. */
  const undone = async (text, params) => {
    await c.query('BEGIN');
    try {
      return await explain(c, text, params);
    } finally {
      await c.query('ROLLBACK');
    }
  };
  for (let i = 0; i < LEADS; i++) {
    const leadId = fresh.leadIds[i];
    const [{ created_at: leadCreated }] = (
      await c.query('SELECT created_at FROM leads WHERE id = $1', [leadId])
    ).rows;
    // EXECUTE takes its arguments as literals, not bind parameters.
    const lead = c.escapeLiteral(leadId);
    figures.probe.push(await undone(`EXECUTE probe(${lead}, now())`, []));
    figures.fanOut.push(
      await explain(c, 'SELECT webhook_fan_out($1, now(), 0)', [fresh.activityIds[i * 8 + 7]]),
    );
    figures.close.push(
      await undone(`EXECUTE close_rows(${lead}, '${leadCreated.toISOString()}')`, []),
    );
    figures.claim.push(await undone(claim(partitioned), []));
  }
  const parts = partitioned
    ? (await c.query(`SELECT count(*)::int AS n FROM pg_partition_tree('outbox') WHERE isleaf`))
        .rows[0].n
    : 1;
  process.stdout.write(
    `outbox ${partitioned ? `partitioned by day, ${parts} partitions` : 'not partitioned'}; ` +
      `${DAYS} days × ${PER_DAY} closed activity rows, ${LEADS} new leads × 8 open\n`,
  );
  for (const [what, xs] of Object.entries(figures)) {
    const kept = xs.slice(5);
    process.stdout.write(
      `  ${what.padEnd(7)} ${String(median(kept.map((x) => x.buffers))).padStart(5)} buffers, ` +
        `${median(kept.map((x) => x.ms)).toFixed(3)} ms (median of ${kept.length})\n`,
    );
  }
} finally {
  await c.end().catch(() => {});
  await sql(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
