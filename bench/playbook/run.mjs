#!/usr/bin/env node
// Playbook-worker benchmark (issue 4 › Tests and figures).
//
// Against a scratch database: one account, a THREE-step playbook (sms at once,
// sms 2 s later, call 2 s after that — short delays so a run ends in a couple of
// minutes), one source. The real intake process (services/intake/dist/main.js)
// and N real playbook-worker processes (services/playbook-worker/dist/main.js) are
// started (so `pnpm build` first); 10,000 distinct valid leads are POSTed through
// the intake with autocannon, so the whole path is measured: intake → outbox +
// fast-path enqueue → enrollment → three steps → completed → unreachable.
// A webhook-worker runs too (--webhook-workers, default 1), as in production: it
// fans each activity out (no subscription here, so it only closes the activity's
// outbox row). Without one, every activity row stayed open and the workers' relays
// re-sent it again and again, a cost no healthy deployment pays.
// The run waits until every lead has an outcome (and the activity outbox has
// drained, reported separately), then measures from PostgreSQL:
//  - activities recorded per second over the busy period (first to last activity);
//  - the enrollment lag, lead received → `started`: the playbook worker's admission
//    control holds enrollments while steps are due and unrun, so a burst waits
//    there instead of making the steps late; it is reported next to the step lag;
//  - the lag between a step's due time and its run, p50/p99: due = the previous
//    step's activity occurred_at (the play's `started` for step 0) + the step's
//    delay_seconds; run = the step's own activity (first_message_sent /
//    message_sent / call_attempted) occurred_at;
//  - exactly-once: one `started` per lead, one activity of each step kind per
//    lead, one provider_messages row per (enrollment, step), one outcome per lead;
//  - CPU per lead of the workers, the intake and PostgreSQL, from /proc
//    (PostgreSQL: the backends connected to the bench database, so other work on
//    a shared machine is not counted; its shared background writers are not either).
//
// Usage: node bench/playbook/run.mjs [--leads 10000] [--workers 1] [--webhook-workers 1]
//          [--rate 0] [--connections 32] [--suppressions 0] [--timeout 1800]
//          [--provider simulation|twilio] [--out bench/RESULTS.md]
//   --rate N  posts at most N leads/s (0 = as fast as the intake takes them).
//   --suppressions N  puts N phones on the account's do-not-contact list first (none
//     of them a bench lead's), so enrollments and step claims check a list that size.
//   --provider twilio  the workers send through PROVIDER=twilio to the fake Twilio REST
//     API of packages/testkit/dist (a local HTTP server in this process, checking Basic
//     auth and the form fields), which answers 201 and posts each message's `sent` and
//     `delivered` and each call's `completed` (a machine: voicemail) status callback,
//     signed, to the intake (so the intake's CPU includes the callbacks). Default:
//     the simulation provider.
//   WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds node args to
//   each worker (a profile is written when it exits on SIGTERM).
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import {
  adminUrl,
  benchArgs,
  benchLead,
  cpuSnapshot,
  createBenchTenant,
  databaseCounters,
  fakeId,
  freePort,
  machineSecondsBetween,
  ownCpuSecondsSince,
  redisUrl,
  root,
  scratchDatabase,
  sleep,
  sql,
  stopChildren,
  waitReady,
} from '../lib.mjs';

const args = benchArgs(
  {
    leads: 10_000,
    workers: 1,
    'webhook-workers': 1,
    rate: 0,
    connections: 32,
    suppressions: 0,
    timeout: 1800,
  },
  { out: { type: 'string' }, provider: { type: 'string' } },
);
const provider = args.provider ?? 'simulation';
if (!['simulation', 'twilio'].includes(provider)) {
  throw new Error('--provider: simulation or twilio');
}
const {
  leads: leadCount,
  workers: workerCount,
  'webhook-workers': webhookWorkerCount,
  rate,
  connections,
  suppressions: suppressionCount,
} = args;
const dbName = `leadhook_bench_playbook_${randomBytes(3).toString('hex')}`;
const scratch = scratchDatabase(dbName);
const dbUrl = scratch.url;
const queuePrefix = `bench-pb-${randomBytes(3).toString('hex')}`;
const STEPS = [
  { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, your quote is ready.' },
  { type: 'sms', delay_seconds: 2, template: 'Still there, {{first_name}}?' },
  { type: 'call', delay_seconds: 2 },
];
const STEP_LABELS = ['first_message_sent', 'message_sent', 'call_attempted'];

/**
 * `count` distinct random 628 (San Francisco) numbers on the account's do-not-contact
 * list, as an import stores them. Bench leads are 415 numbers (benchLead), so none of
 * them is on it: every lead still runs the whole playbook.
 */
async function listSuppressions(accountId, count) {
  // 628-200-0000 to 628-999-9999: 8,000,000 numbers to draw from.
  if (count > 8_000_000) throw new Error('--suppressions: at most 8000000');
  const phones = new Set();
  while (phones.size < count) {
    phones.add(`+1628${2_000_000 + randomInt(8_000_000)}`);
  }
  const all = [...phones];
  const importId = fakeId('imp');
  for (let at = 0; at < all.length; at += 10_000) {
    await sql(
      dbUrl,
      `INSERT INTO suppressions (account_id, phone, reason, import_id)
       SELECT $1, p, 'imported', $2 FROM unnest($3::text[]) AS p`,
      [accountId, importId, all.slice(at, at + 10_000)],
    );
  }
  // Statistics as autovacuum would have them for a list this size.
  if (count > 0) await sql(dbUrl, 'ANALYZE suppressions');
}

/**
 * The fake Twilio of the end-to-end tests (packages/testkit/dist: `pnpm build`),
 * posting status callbacks, with every call answered by a machine (a voicemail,
 * so the lead still ends unreachable, as on the simulation); answers the settings
 * that point the workers and the intake at it.
 */
async function startFakeTwilio(intakeBase) {
  const { FakeTwilio } = await import(resolve(root, 'packages/testkit/dist/fake-twilio.js'));
  fake = await FakeTwilio.start({ callbacks: true });
  const machine = { kind: 'accept', fate: { call: 'completed', answeredBy: 'machine_end_beep' } };
  fake.script('call', ...Array.from({ length: leadCount }, () => machine));
  return {
    ...fake.settings(),
    TWILIO_FROM_NUMBER: '+14155550199',
    PUBLIC_BASE_URL: intakeBase,
    // A 5xx is not expected from the fake; a short schedule keeps a surprise visible.
    PROVIDER_RETRY_SCHEDULE: '1s,1s',
  };
}

// --- a fresh database: one account, the three-step playbook, one source -----------
const loadBefore = loadavg();
let exitCode = 1;
const children = [];
let fake;
try {
  await scratch.setUp();
  const { accountId, intakeKey } = await createBenchTenant(dbUrl, STEPS);
  await listSuppressions(accountId, suppressionCount);

  // --- the processes ----------------------------------------------------------------
  const intakePort = await freePort();
  const intakeBase = `http://127.0.0.1:${intakePort}`;
  const commonEnv = {
    ...process.env,
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'warn',
    ...(provider === 'twilio' ? await startFakeTwilio(intakeBase) : {}),
  };
  const workerNodeArgs = process.env.WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const workers = [];
  for (let i = 0; i < workerCount; i++) {
    const port = await freePort();
    const child = spawn('node', [...workerNodeArgs, 'services/playbook-worker/dist/main.js'], {
      cwd: root,
      env: {
        ...commonEnv,
        PLAYBOOK_WORKER_PORT: String(port),
        // Development setting (the worker warns): every instant is in the window.
        CONTACT_HOURS: '00:00-24:00',
      },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    // The one expected warning (CONTACT_HOURS wider than the law) is not noise worth
    // showing; anything else on stderr is passed through.
    child.stderr.on('data', (chunk) => {
      const text = chunk.toString();
      if (!text.includes('CONTACT_HOURS is wider')) process.stderr.write(text);
    });
    children.push(child);
    workers.push({ child, base: `http://127.0.0.1:${port}` });
  }
  const webhookWorkers = [];
  for (let i = 0; i < webhookWorkerCount; i++) {
    const port = await freePort();
    const child = spawn('node', ['services/webhook-worker/dist/main.js'], {
      cwd: root,
      env: { ...commonEnv, WEBHOOK_WORKER_PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
    webhookWorkers.push({ child, base: `http://127.0.0.1:${port}` });
  }
  const intake = spawn('node', ['services/intake/dist/main.js'], {
    cwd: root,
    env: {
      ...commonEnv,
      INTAKE_PORT: String(intakePort),
      INTAKE_INTERNAL_PORT: String(await freePort()),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(intake);
  await Promise.all([
    waitReady(intakeBase, 'intake'),
    ...workers.map((w, i) => waitReady(w.base, `worker ${i}`)),
    ...webhookWorkers.map((w, i) => waitReady(w.base, `webhook-worker ${i}`)),
  ]);

  // Distinct valid leads in California (no state contact rule), San Francisco
  // numbers (415, one zone): exchanges 200-999, lines 0000-9999.
  let seq = 0;
  const lead = () => benchLead(seq++, { tag: 'pbbench' });

  const statuses = new Map();
  const pids = {
    workers: workers.map((w) => w.child.pid),
    webhook: webhookWorkers.map((w) => w.child.pid),
    intake: [intake.pid],
  };
  // The backends serving the bench database (the pools keep them open), so the
  // other work of a shared machine is not counted as this run's PostgreSQL CPU.
  const benchBackends = async () =>
    (await sql(adminUrl, 'SELECT pid FROM pg_stat_activity WHERE datname = $1', [dbName])).map(
      (r) => r.pid,
    );
  const snapshot = async () => cpuSnapshot({ ...pids, postgres: await benchBackends() });
  const before = await snapshot();
  const posted = await autocannon({
    url: `${intakeBase}/marketing_sources/${accountId}/${intakeKey}`,
    connections,
    amount: leadCount,
    ...(rate > 0 ? { overallRate: rate } : {}),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: lead() }),
        onResponse: (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
      },
    ],
  });
  const postSeconds = (Date.now() - before.at) / 1000;
  const accepted = statuses.get(201) ?? 0;

  // --- wait until every accepted lead has its outcome --------------------------------
  // A progress poll that fails (a shared server out of connection slots: "too many
  // clients") is skipped, not fatal: the run it watches is still going.
  const countOrNull = (text) =>
    sql(dbUrl, text).then(
      ([row]) => row.n,
      (err) => {
        process.stderr.write(`bench: progress poll failed (${err.message}); retrying\n`);
        return null;
      },
    );
  const deadline = Date.now() + args.timeout * 1000;
  let withOutcome = 0;
  let lastProgress = Date.now();
  while (Date.now() < deadline) {
    const n = await countOrNull('SELECT count(*)::int AS n FROM leads WHERE outcome IS NOT NULL');
    if (n === null) {
      await sleep(500);
      continue;
    }
    if (n !== withOutcome) lastProgress = Date.now();
    withOutcome = n;
    if (n >= accepted) break;
    // Stuck for a minute (nothing left the queues): stop waiting.
    if (Date.now() - lastProgress > 60_000) break;
    await sleep(500);
  }
  const after = await snapshot();
  const wallSeconds = (after.at - before.at) / 1000;

  // The webhook-worker's fan-out may still be behind: wait for the activity outbox
  // to drain (reported, not part of the figures above).
  let openOutbox = 0;
  let drained = Date.now();
  for (let last = -1, since = Date.now(); Date.now() < deadline; ) {
    const n = await countOrNull('SELECT count(*)::int AS n FROM outbox WHERE done_at IS NULL');
    if (n === null) {
      await sleep(500);
      continue;
    }
    openOutbox = n;
    drained = Date.now();
    if (n === 0 || webhookWorkerCount === 0) break;
    if (n !== last) since = Date.now();
    last = n;
    if (Date.now() - since > 60_000) break;
    await sleep(500);
  }
  const drainSeconds = (drained - before.at) / 1000;

  // The workers' own view: the step-lag histogram and the relay's re-sends.
  const metrics = await Promise.all(
    workers.map((w) =>
      fetch(`${w.base}/metrics`)
        .then((r) => r.text())
        .catch(() => ''),
    ),
  );
  // Sum of a metric's samples over the workers; `le` picks one histogram bucket.
  const metricSum = (name, le) =>
    metrics
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .filter((line) => le === undefined || line.includes(`le="${le}"`))
      .reduce((a, line) => a + Number(line.split(' ').pop()), 0);
  const workerLagAtMost1s = metricSum('leadhook_playbook_step_lag_seconds_bucket', '1');
  const workerLagCount = metricSum('leadhook_playbook_step_lag_seconds_count');
  const relayed = metricSum('leadhook_outbox_relayed_total');
  const heldSum = metricSum('leadhook_playbook_enrollment_held_seconds_sum');
  const heldCount = metricSum('leadhook_playbook_enrollment_held_seconds_count');
  const webhookRelayed = (
    await Promise.all(
      webhookWorkers.map((w) =>
        fetch(`${w.base}/metrics`)
          .then((r) => r.text())
          .catch(() => ''),
      ),
    )
  )
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.startsWith('leadhook_outbox_relayed_total'))
    .reduce((a, line) => a + Number(line.split(' ').pop()), 0);

  // Status callbacks still under way are part of the intake's work, not counted.
  await stopChildren(children);
  children.length = 0;
  const twilioFigures = fake
    ? {
        messages: fake.messages.length,
        calls: fake.calls.length,
        callbacks: fake.callbacks.length,
        taken: fake.callbacks.filter((c) => c.status === 200).length,
      }
    : undefined;
  await fake?.close();
  fake = undefined;

  // --- figures from PostgreSQL --------------------------------------------------------
  const labels = await sql(
    dbUrl,
    `SELECT activity_label AS label, count(*)::int AS n FROM activities GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
  const [busy] = await sql(
    dbUrl,
    `SELECT count(*)::int AS n,
            EXTRACT(EPOCH FROM max(occurred_at) - min(occurred_at))::float8 AS span
       FROM activities`,
  );
  // Peak: the busiest whole second.
  const [peak] = await sql(
    dbUrl,
    `SELECT coalesce(max(n), 0)::int AS n FROM
       (SELECT count(*) AS n FROM activities GROUP BY date_trunc('second', occurred_at)) s`,
  );
  const lagSql = `
    WITH e AS (
      SELECT en.id,
             min(a.occurred_at) FILTER (WHERE a.activity_label = 'started') AS t0,
             min(a.occurred_at) FILTER (WHERE a.activity_label = '${STEP_LABELS[0]}') AS t1,
             min(a.occurred_at) FILTER (WHERE a.activity_label = '${STEP_LABELS[1]}') AS t2,
             min(a.occurred_at) FILTER (WHERE a.activity_label = '${STEP_LABELS[2]}') AS t3
        FROM enrollments en JOIN activities a ON a.enrollment_id = en.id
       GROUP BY en.id),
    lags AS (
      SELECT 0 AS step, EXTRACT(EPOCH FROM t1 - (t0 + make_interval(secs => $1)))::float8 AS lag FROM e
      UNION ALL
      SELECT 1, EXTRACT(EPOCH FROM t2 - (t1 + make_interval(secs => $2)))::float8 FROM e
      UNION ALL
      SELECT 2, EXTRACT(EPOCH FROM t3 - (t2 + make_interval(secs => $3)))::float8 FROM e)
    SELECT step, count(lag)::int AS n,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) AS p99,
           max(lag) AS max
      FROM lags GROUP BY ROLLUP (step) ORDER BY step NULLS LAST`;
  const lags = await sql(
    dbUrl,
    lagSql,
    STEPS.map((s) => s.delay_seconds),
  );
  // Not part of the step lag: how long an accepted lead waited to be enrolled.
  const [enrollWait] = await sql(
    dbUrl,
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY w) AS p50,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY w) AS p99, max(w) AS max
       FROM (SELECT EXTRACT(EPOCH FROM a.occurred_at - l.received_at)::float8 AS w
               FROM leads l JOIN activities a ON a.lead_id = l.id AND a.activity_label = 'started') s`,
  );
  const [checks] = await sql(
    dbUrl,
    `SELECT
       (SELECT count(*)::int FROM leads) AS leads,
       (SELECT count(*)::int FROM enrollments) AS enrollments,
       (SELECT count(*)::int FROM (SELECT lead_id FROM activities WHERE activity_label = 'started'
                                    GROUP BY lead_id HAVING count(*) = 1) s) AS started_once,
       (SELECT count(*)::int FROM (SELECT lead_id FROM activities WHERE activity_label = 'started'
                                    GROUP BY lead_id HAVING count(*) > 1) s) AS started_twice,
       (SELECT count(*)::int FROM (SELECT lead_id, activity_label FROM activities
                                    WHERE activity_label = ANY($1)
                                    GROUP BY 1, 2 HAVING count(*) > 1) s) AS step_twice,
       (SELECT count(*)::int FROM (SELECT l.id FROM leads l JOIN activities a ON a.lead_id = l.id
                                    AND a.activity_label = ANY($1)
                                    GROUP BY l.id HAVING count(DISTINCT a.activity_label) = 3) s)
         AS all_steps,
       (SELECT count(*)::int FROM provider_messages) AS provider_messages,
       (SELECT count(*)::int FROM (SELECT enrollment_id, step FROM provider_messages
                                    GROUP BY 1, 2 HAVING count(*) > 1) s) AS provider_twice,
       (SELECT count(*)::int FROM leads WHERE outcome IS NOT NULL) AS with_outcome,
       (SELECT count(*)::int FROM activities WHERE activity_type = 'outcome') AS outcomes,
       (SELECT count(*)::int FROM enrollments WHERE status = 'completed') AS completed`,
    [STEP_LABELS],
  );
  // What the relays looked at, by topic (relay_count: times a relay claimed the row,
  // whether it sent the job again or found it still queued; the metric above counts
  // the re-sends).
  const relayedByTopic = await sql(
    dbUrl,
    `SELECT topic, sum(relay_count)::int AS n, count(*) FILTER (WHERE relay_count > 0)::int AS rows
       FROM outbox GROUP BY topic ORDER BY topic`,
  );
  const pgVersion = (await sql(dbUrl, 'SHOW server_version'))[0].server_version;
  // Where PostgreSQL's time went: rows read per table (seq + index) and commits. A
  // partitioned table's (activities by month, the outbox by day: docs/operations.md,
  // "History partitions", "Outbox partitions") are its partitions', summed, and so
  // are a partitioned index's (pg_partition_tree lists nothing for a plain table).
  const tables = await sql(
    dbUrl,
    `SELECT t.name AS relname, sum(s.seq_scan)::bigint AS seq_scan,
            sum(s.seq_tup_read)::bigint AS seq_read,
            sum(coalesce(s.idx_tup_fetch, 0))::bigint AS idx_fetch
       FROM unnest($1::text[]) AS t(name)
       CROSS JOIN LATERAL (SELECT relid FROM pg_partition_tree(t.name::regclass)
                           UNION SELECT t.name::regclass) p
       JOIN pg_stat_user_tables s ON s.relid = p.relid
      GROUP BY t.name ORDER BY seq_read DESC`,
    [['activities', 'outbox', 'enrollments', 'leads', 'provider_messages']],
  );
  const dbStats = await databaseCounters(dbUrl);
  const outboxIdx = await sql(
    dbUrl,
    `SELECT i.indexrelid::regclass::text AS name, sum(s.idx_tup_read)::bigint AS n
       FROM pg_index i
       CROSS JOIN LATERAL (SELECT relid FROM pg_partition_tree(i.indexrelid)
                           UNION SELECT i.indexrelid) p
       JOIN pg_stat_user_indexes s ON s.indexrelid = p.relid
      WHERE i.indrelid = 'outbox'::regclass
      GROUP BY 1 ORDER BY 1`,
  );

  // --- report ---------------------------------------------------------------------------
  const cpu = {
    workers: after.workers - before.workers,
    webhook: after.webhook - before.webhook,
    intake: after.intake - before.intake,
    // Backends that exited during the run are not counted; the pools keep them open.
    postgres: after.postgres - before.postgres,
    redis: after.redis - before.redis,
    loader: ownCpuSecondsSince(before.loader),
    ...machineSecondsBetween(before.machine, after.machine),
  };
  const ms = (s) => `${(s * 1e3).toFixed(0)} ms`;
  const perLead = (s) => `${((s / accepted) * 1e3).toFixed(2)} ms`;
  const perStep = (s) => `${((s / (accepted * STEPS.length)) * 1e3).toFixed(2)} ms`;
  const lagRow = (r) =>
    `| lag ${r.step === null ? '**all steps**' : `step ${r.step} (${STEPS[r.step].type}, delay ${STEPS[r.step].delay_seconds} s)`} p50 / p99 / max (n) | ${r.step === null ? '**' : ''}${ms(r.p50)} / ${ms(r.p99)}${r.step === null ? '**' : ''} / ${ms(r.max)} (${r.n}) |`;
  const all = lags.find((r) => r.step === null);
  const exactlyOnce =
    checks.started_once === accepted &&
    checks.started_twice === 0 &&
    checks.step_twice === 0 &&
    checks.all_steps === accepted &&
    checks.provider_messages === accepted * STEPS.length &&
    checks.provider_twice === 0 &&
    checks.with_outcome === accepted &&
    checks.outcomes === accepted;
  const stepList = STEPS.map((s) => `${s.type} +${s.delay_seconds} s`).join(', ');
  const report = `
## Playbook worker — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC

Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL ${pgVersion}; load average before the run ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min), after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}.
Command: \`node bench/playbook/run.mjs --leads ${leadCount} --workers ${workerCount} --webhook-workers ${webhookWorkerCount} --rate ${rate} --connections ${connections} --suppressions ${suppressionCount} --provider ${provider}\`${process.env.WORKER_NODE_ARGS ? ` with WORKER_NODE_ARGS="${process.env.WORKER_NODE_ARGS}"` : ''}
Setup: ${workerCount} playbook-worker process(es) (default concurrency and admission control, CONTACT_HOURS=00:00-24:00), one intake process, ${webhookWorkerCount} webhook-worker process(es) (no subscriptions: each fan-out only closes its activity's outbox row); playbook [${stepList}]; provider ${provider === 'twilio' ? 'twilio, against the fake Twilio REST API in the bench process (201 at once; `sent`, `delivered` and call `completed` by a machine posted, signed, to the intake ~200 ms apart)' : 'simulation'}; ${leadCount} distinct leads (CA, 415 numbers) POSTed through the intake ${rate > 0 ? `at ${rate}/s` : 'as fast as it takes them'} with ${connections} connections.

| figure | value |
|---|---|
| leads accepted by the intake (201) / posting time | ${accepted} in ${postSeconds.toFixed(1)} s (${(accepted / postSeconds).toFixed(0)}/s); responses ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}${posted.errors + posted.timeouts ? `; ${posted.errors} errors, ${posted.timeouts} timeouts` : ''} |
| do-not-contact list of the account (none of them a bench lead's phone) | ${suppressionCount} phones |
| first POST → last lead's outcome | ${wallSeconds.toFixed(1)} s (${withOutcome} of ${accepted} leads with an outcome) |
| **activities recorded per second** (busy period: first to last activity) | **${(busy.n / busy.span).toFixed(0)}/s** (${busy.n} in ${busy.span.toFixed(1)} s); busiest second ${peak.n} |
| leads worked to their outcome per second (same period) | ${(withOutcome / busy.span).toFixed(0)}/s |
${lags.map(lagRow).join('\n')}
| **enrollment lag**: lead received → \`started\` p50 / p99 / max (the burst waits here: admission control) | **${ms(enrollWait.p50)} / ${ms(enrollWait.p99)}** / ${ms(enrollWait.max)} |
| enrollments held by admission control: mean hold (n) | ${heldCount ? ms(heldSum / heldCount) : '-'} (${heldCount}) |
| target: lag p99 < 1 s | ${all && all.p99 < 1 ? 'met' : '**not met**'} |
| workers' own histogram (leadhook_playbook_step_lag_seconds): steps with lag ≤ 1 s | ${workerLagAtMost1s} of ${workerLagCount} (${workerLagCount ? ((100 * workerLagAtMost1s) / workerLagCount).toFixed(1) : 0} %) |
| activities by label | ${labels.map((r) => `${r.label} ${r.n}`).join(', ')} |
| enrolled exactly once (one \`started\` per lead) | ${checks.started_once} of ${accepted} leads; leads with two: ${checks.started_twice}; enrollments ${checks.enrollments} |
| no step ran twice | leads with a step activity twice: ${checks.step_twice}; leads with all three step activities: ${checks.all_steps}; provider_messages ${checks.provider_messages} (expected ${accepted * STEPS.length}), (enrollment, step) pairs with two: ${checks.provider_twice} |
| every lead reached an outcome | ${checks.with_outcome} of ${accepted} (outcome activities ${checks.outcomes}, plays completed ${checks.completed}) |
| outbox rows re-sent by the relays: playbook-worker(s) / webhook-worker(s); claimed, by topic (claims, rows) | ${relayed} / ${webhookRelayed}; ${relayedByTopic.map((r) => `${r.topic} ${r.n} (${r.rows} rows)`).join(', ')} |
| outbox drained (every activity fanned out) | ${openOutbox === 0 ? `${drainSeconds.toFixed(1)} s after the first POST` : `**not drained**: ${openOutbox} rows still open`} |
| PostgreSQL per lead: commits / rows returned | ${(dbStats.commits / accepted).toFixed(1)} / ${(dbStats.returned / accepted).toFixed(0)} |
| rows read per table (seq scans: rows read; index rows fetched) | ${tables.map((t) => `${t.relname}: ${t.seq_scan} seq scans reading ${t.seq_read} rows, ${t.idx_fetch} by index`).join('; ')}; outbox index entries read: ${outboxIdx.map((i) => `${i.name} ${i.n}`).join(', ')} |
| **CPU per step** (${STEPS.length} per lead): playbook-worker(s) / intake / PostgreSQL (bench backends) | **${perStep(cpu.workers)}** / ${perStep(cpu.intake)} / ${perStep(cpu.postgres)} |
${twilioFigures ? `| fake Twilio: messages / calls created; status callbacks posted (200s) | ${twilioFigures.messages} / ${twilioFigures.calls}; ${twilioFigures.callbacks} (${twilioFigures.taken}) |\n` : ''}| **CPU per lead**: playbook-worker(s) / PostgreSQL (bench backends) / webhook-worker(s) / intake | **${perLead(cpu.workers)}** / ${perLead(cpu.postgres)} / ${perLead(cpu.webhook)} / ${perLead(cpu.intake)} |
| CPU used, first POST → last outcome (of ${(cpus().length * wallSeconds).toFixed(0)} core-seconds) | playbook-worker(s) ${cpu.workers.toFixed(1)} s, PostgreSQL ${cpu.postgres.toFixed(1)} s, webhook-worker(s) ${cpu.webhook.toFixed(1)} s, intake ${cpu.intake.toFixed(1)} s, Redis ${cpu.redis.toFixed(1)} s, load generator ${cpu.loader.toFixed(1)} s |
| machine in that time: busy / idle / stolen | ${cpu.busy.toFixed(1)} s / ${cpu.idle.toFixed(1)} s / ${cpu.steal.toFixed(1)} s (other sessions' work included) |
`;
  process.stdout.write(report);
  if (args.out) appendFileSync(resolve(root, args.out), report);
  exitCode = exactlyOnce && all && all.p99 < 1 ? 0 : exactlyOnce ? 2 : 1;
} finally {
  await stopChildren(children);
  await fake?.close();
  await scratch.drop();
}
process.exit(exitCode);
