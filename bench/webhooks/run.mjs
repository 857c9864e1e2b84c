#!/usr/bin/env node
// Webhook-worker benchmark (issue 5 › Benchmark).
//
// Against a scratch database: one account, playbook and source, and 3 subscriptions
// (events ["*"], outcomes ["*"]) pointing at 3 real HTTP servers on loopback
// (bench/webhooks/subscriber.mjs, one child process: each answers 204 and records
// the receipt time and webhook-id). The real webhook-worker
// (services/webhook-worker/dist/main.js, so `pnpm build` first) is started and left
// idle until ready; then, in ONE transaction, LEADS leads × PER_LEAD activities
// (default 1,000 × 10 = 10,000 `event` activities, occurred_at = the transaction's
// now() plus i ms so a lead's activities have an order) are inserted with SQL
// together with their outbox rows (topic 'activity', payload {activity_id}, the
// default next_relay_at, 10 s on), and after the commit their jobs are enqueued as
// the activity path's fast path does (packages/queue QueueSet, here in batches of
// 500 with addBulk); the worker's outbox relay covers what is still open after
// 10 s. (Until 2026-11-22 19:00 the bench left every activity to the relay, which
// sends at most 500 rows per second per process: a 1,500 deliveries/s ceiling of
// the setup, not of the worker.) Fan-out creates the deliveries (3 per activity)
// and the chains deliver them.
// Measured until every delivery has succeeded:
//  - deliveries/s: deliveries ÷ (commit of the activities → last receipt);
//  - activity-created-to-receipt latency p50/p99 (first receipt of each
//    (activity, subscriber) minus the activity's occurred_at);
//  - attempt rows recorded, and zero lost: every (activity, subscriber) received
//    at least once; duplicates counted by (subscriber, webhook-id);
//  - CPU of the worker, PostgreSQL, Redis and the subscribers, from /proc.
// Then, in the same run, the limit: a bare node:http client with a keep-alive Agent
// posts the same bodies (as the subscribers received them), freshly signed with
// node:crypto HMAC (Standard Webhooks), to the same servers, CONCURRENCY in flight
// (default 32, as many as the worker's delivery jobs until 2026-11-23), and again with 10 in
// flight, and once without keep-alive (a new connection per request, as deliver()
// did before it kept connections).
//
// Usage: node bench/webhooks/run.mjs [--leads 1000] [--per-lead 10] [--subscribers 3]
//          [--concurrency 32] [--timeout 900] [--out bench/RESULTS.md]
//   WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds node args to the worker.
import { fork, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { QueueSet } from '../../packages/queue/dist/index.js';
import {
  ask,
  benchArgs,
  cpuSeconds,
  cpuSnapshot,
  createBenchTenant,
  databaseCounters,
  fakeId,
  freePort,
  machineSecondsBetween,
  ownCpuSecondsSince,
  postgresPids,
  redisUrl,
  scratchDatabase,
  sleep,
  sql,
  stopChildren,
  tableReads,
  waitReady,
} from '../lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const args = benchArgs(
  {
    leads: 1000,
    'per-lead': 10,
    subscribers: 3,
    concurrency: 32,
    timeout: 900,
  },
  { out: { type: 'string' } },
);
const { leads: leadCount, 'per-lead': perLead, subscribers: subscriberCount, concurrency } = args;
const activityCount = leadCount * perLead;
const expected = activityCount * subscriberCount;
const TARGET = 2000;
const scratch = scratchDatabase(`leadhook_bench_webhooks_${randomBytes(3).toString('hex')}`);
const dbUrl = scratch.url;
const queuePrefix = `bench-wh-${randomBytes(3).toString('hex')}`;
const LABELS = [
  'started',
  'first_message_sent',
  'message_sent',
  'call_attempted',
  'message_received',
  'note_added',
];

// --- /proc accounting (as bench/intake and bench/playbook) -------------------------

// --- PostgreSQL CPU of this run's own backends -------------------------------------
// The machine's PostgreSQL serves other sessions too, so summing every postgres
// process mixes their work in (and goes negative when their backends exit). This
// follows the backends connected to the bench database (the worker's pools; not
// the bench's own polling connection), polled with the progress check: each one's
// CPU since the run started (or since it connected, when later). Shared background
// processes (WAL writer, checkpointer, autovacuum) are not counted here.
const backends = new Map(); // pid → { first, last } CPU seconds
async function pollBackends(client, starting = false) {
  const { rows } = await client.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  for (const { pid } of rows) {
    const now = cpuSeconds([pid]);
    const seen = backends.get(pid);
    if (seen) seen.last = Math.max(seen.last, now);
    else backends.set(pid, { first: starting ? now : 0, last: now });
  }
}
const backendCpu = () => [...backends.values()].reduce((a, b) => a + b.last - b.first, 0);

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

/** Standard Webhooks signature, as packages/webhooks sign() (one secret). */
function signature(secret, id, timestamp, body) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The limit: posts every body once, `inFlight` at a time; returns requests/s. */
async function bareClient(items, ports, secrets, inFlight, keepAlive) {
  const agent = new Agent({ keepAlive, maxSockets: inFlight });
  let next = 0;
  let failures = 0;
  const post = ([server, id, body]) =>
    new Promise((resolve) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const req = request(
        {
          host: '127.0.0.1',
          port: ports[server],
          path: '/hook',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'leadhook-bench (+webhooks)',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signature(secrets[server], id, timestamp, body),
          },
        },
        (res) => {
          if (res.statusCode !== 204) failures++;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => {
        failures++;
        resolve();
      });
      req.end(body);
    });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < items.length) await post(items[next++]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return {
    inFlight,
    keepAlive,
    requests: items.length,
    failures,
    seconds,
    rate: items.length / seconds,
    clientCpu: (cpu.user + cpu.system) / 1e6,
  };
}

// --- a fresh database ------------------------------------------------------------------
const loadBefore = loadavg();
let exitCode = 1;
const children = [];
try {
  await scratch.setUp();

  const subscriberProc = fork(join(here, 'subscriber.mjs'), [String(subscriberCount)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(subscriberProc);
  const ports = await ask(subscriberProc, 'hello', 'ports');

  const { accountId, playbookId, sourceId } = await createBenchTenant(dbUrl);
  const subscriptions = ports.map((port) => ({
    id: fakeId('sub'),
    port,
    secret: `whsec_${randomBytes(32).toString('base64')}`,
  }));
  for (const s of subscriptions) {
    await sql(
      dbUrl,
      `INSERT INTO subscriptions (id, account_id, url, events, outcomes, secret)
       VALUES ($1, $2, $3, '{*}', '{*}', $4)`,
      [s.id, accountId, `http://127.0.0.1:${s.port}/hook`, s.secret],
    );
  }

  // --- the worker, idle until the activities appear -------------------------------------
  const workerPort = await freePort();
  const workerNodeArgs = process.env.WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const worker = spawn('node', [...workerNodeArgs, 'services/webhook-worker/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: queuePrefix,
      LOG_LEVEL: 'warn',
      WEBHOOK_WORKER_PORT: String(workerPort),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(worker);
  const workerBase = `http://127.0.0.1:${workerPort}`;
  await waitReady(workerBase, 'webhook-worker');

  const leadIds = Array.from({ length: leadCount }, () => fakeId('lead'));
  const activityIds = Array.from({ length: activityCount }, () => fakeId('act'));
  const lead = {
    first_name: 'Bench',
    last_name: 'Lead',
    email: 'bench@example.com',
    phone: '+14155550100',
  };

  const pids = { worker: [worker.pid], subscribers: [subscriberProc.pid] };
  const snapshot = () => cpuSnapshot({ ...pids, postgres: postgresPids() });
  const producer = new QueueSet({ redisUrl, prefix: queuePrefix });
  while (producer.redis.status !== 'ready') await sleep(20);
  const monitor = new pg.Client({ connectionString: dbUrl });
  monitor.on('error', () => {}); // the database is dropped at the end, whatever happened
  await monitor.connect();
  await pollBackends(monitor, true);
  const before = snapshot();

  // Leads, activities and outbox rows in one transaction: the activities' "created"
  // instant is the commit (occurred_at = now() + i ms, ms after the transaction start).
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                        first_name, last_name, fields, canonical, external_id,
                        tcpa_opt_in_token, tcpa_opt_in_url, received_at)
     SELECT id, $2, $3, 'bench', $4, $5, $6, 'Bench', 'Lead' || n, $7::jsonb, $7::jsonb,
            'ext-' || n, 'tok-' || n, 'https://quotes.example.com/consent', now()
       FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)`,
    [leadIds, accountId, sourceId, playbookId, lead.phone, lead.email, JSON.stringify(lead)],
  );
  await client.query(
    `WITH a AS (
       INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note,
                               data, occurred_at)
       SELECT id, $2, ($3::text[])[(n - 1) / $4 + 1], 'event',
              ($5::text[])[((n - 1) % $4) % cardinality($5::text[]) + 1], 'bench',
              jsonb_build_object('seq', n), now() + make_interval(secs => ((n - 1) % $4) / 1000.0)
         FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)
       RETURNING id)
     INSERT INTO outbox (topic, payload)
     SELECT 'activity', jsonb_build_object('activity_id', id) FROM a`,
    [activityIds, accountId, leadIds, perLead, LABELS],
  );
  await client.query('COMMIT');
  const committedAt = Date.now();
  await client.end();
  // The fast path, as ActivityRecorder does after its commit (one job per activity).
  for (let i = 0; i < activityIds.length; i += 500) {
    await producer.enqueueMany(
      'activity',
      activityIds.slice(i, i + 500).map((id) => ({ activity_id: id })),
    );
  }
  const enqueuedAt = Date.now();

  // --- wait until every delivery has succeeded -------------------------------------------
  // Progress is the subscribers' request count (IPC, no load on PostgreSQL); the
  // rows are counted once the subscribers have had every request (the count's
  // sequential scan, and a connection per poll, cost PostgreSQL 6 % of the run).
  const deadline = Date.now() + args.timeout * 1000;
  let received = 0;
  let lastProgress = Date.now();
  const counter = new pg.Client({ connectionString: dbUrl });
  await counter.connect();
  try {
    while (Date.now() < deadline) {
      const n = await ask(subscriberProc, 'count', 'count');
      await pollBackends(monitor);
      if (n !== received) lastProgress = Date.now();
      received = n;
      if (n >= expected) {
        const { rows } = await counter.query(
          `SELECT count(*)::int AS n FROM deliveries WHERE status = 'succeeded'`,
        );
        if (rows[0].n >= expected) break;
      }
      if (Date.now() - lastProgress > 60_000) break;
      await sleep(200);
    }
  } finally {
    await counter.end();
  }
  await pollBackends(monitor);
  const after = snapshot();
  await monitor.end();
  await producer.close();

  const metricsText = await fetch(`${workerBase}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
  const metricSum = (name, le) =>
    metricsText
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .filter((line) => le === undefined || line.includes(`le="${le}"`))
      .reduce((a, line) => a + Number(line.split(' ').pop()), 0);
  const relayed = metricSum('leadhook_outbox_relayed_total');
  const attemptSum = metricSum('leadhook_webhook_attempt_duration_seconds_sum');
  const attemptCount = metricSum('leadhook_webhook_attempt_duration_seconds_count');

  worker.kill('SIGTERM');
  if (worker.exitCode === null) await new Promise((r) => worker.once('exit', r));

  // --- figures --------------------------------------------------------------------------
  const receipts = await ask(subscriberProc, 'receipts', 'receipts');
  const occurred = new Map(
    (
      await sql(
        dbUrl,
        `SELECT id, (EXTRACT(EPOCH FROM occurred_at) * 1000)::float8 AS ms FROM activities`,
      )
    ).map((r) => [r.id, r.ms]),
  );
  const first = new Map();
  for (const [server, id, at] of receipts) {
    const key = `${server} ${id}`;
    if (!first.has(key)) first.set(key, at);
  }
  const duplicates = receipts.length - first.size;
  let lost = 0;
  for (const id of activityIds)
    for (let s = 0; s < subscriberCount; s++) if (!first.has(`${s} ${id}`)) lost++;
  const latencies = [...first]
    .map(([key, at]) => at - (occurred.get(key.split(' ')[1]) ?? Number.NaN))
    .filter((x) => Number.isFinite(x))
    .sort((a, b) => a - b);
  const receiptTimes = receipts.map((r) => r[2]).sort((a, b) => a - b);
  const firstReceipt = receiptTimes[0] ?? committedAt;
  const lastReceipt = receiptTimes.at(-1) ?? committedAt;
  const wallSeconds = (lastReceipt - committedAt) / 1000;
  const busySeconds = (lastReceipt - firstReceipt) / 1000;
  const rate = first.size / wallSeconds;
  // Peak: the busiest whole second at the subscribers.
  const perSecond = new Map();
  for (const t of receiptTimes) {
    const s = Math.floor(t / 1000);
    perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
  }
  const peak = Math.max(0, ...perSecond.values());
  // The run's shape: receipts in each second from the commit (ramp, steady, tail).
  const timeline = Array.from({ length: Math.ceil(wallSeconds) }, () => 0);
  for (const t of receiptTimes) timeline[Math.floor((t - committedAt) / 1000)]++;
  const [checks] = await sql(
    dbUrl,
    `SELECT
       (SELECT count(*)::int FROM deliveries) AS deliveries,
       (SELECT count(*)::int FROM deliveries WHERE status = 'succeeded') AS succeeded,
       (SELECT count(*)::int FROM deliveries WHERE status = 'failed') AS failed,
       (SELECT count(*)::int FROM attempts) AS attempts,
       (SELECT count(*)::int FROM attempts WHERE status_code = 204) AS attempts_204,
       (SELECT count(*)::int FROM (SELECT delivery_id FROM attempts GROUP BY 1
                                    HAVING count(*) > 1) s) AS attempted_twice,
       (SELECT count(*)::int FROM outbox WHERE done_at IS NULL) AS outbox_open`,
  );
  const pgVersion = (await sql(dbUrl, 'SHOW server_version'))[0].server_version;
  const dbStats = await databaseCounters(dbUrl);
  const tables = await tableReads(dbUrl, [
    'activities',
    'outbox',
    'deliveries',
    'attempts',
    'subscriptions',
    'leads',
  ]);

  const cpu = {
    worker: after.worker - before.worker,
    subscribers: after.subscribers - before.subscribers,
    postgres: backendCpu(),
    postgresAll: after.postgres - before.postgres,
    redis: after.redis - before.redis,
    loader: ownCpuSecondsSince(before.loader),
    ...machineSecondsBetween(before.machine, after.machine),
  };
  const runSeconds = (after.at - before.at) / 1000;

  // --- the limit: a bare client, same bodies, same servers --------------------------------
  const bodies = await ask(subscriberProc, 'bodies', 'bodies');
  await ask(subscriberProc, 'reset', 'reset', { keep: false });
  const secrets = subscriptions.map((s) => s.secret);
  const subCpu0 = cpuSeconds(pids.subscribers);
  const bare = await bareClient(bodies, ports, secrets, concurrency, true);
  bare.subscriberCpu = cpuSeconds(pids.subscribers) - subCpu0;
  const variants = [];
  for (const [inFlight, keepAlive] of [
    [10, true],
    [concurrency, false],
  ]) {
    const c0 = cpuSeconds(pids.subscribers);
    const v = await bareClient(bodies, ports, secrets, inFlight, keepAlive);
    v.subscriberCpu = cpuSeconds(pids.subscribers) - c0;
    variants.push(v);
  }
  const bareReceived = await ask(subscriberProc, 'count', 'count');

  // --- report ------------------------------------------------------------------------------
  const ms = (x) => `${x.toFixed(0)} ms`;
  const perDelivery = (s) => `${((s / Math.max(1, first.size)) * 1e3).toFixed(2)} ms`;
  const complete = lost === 0 && checks.succeeded === expected && checks.attempts >= expected;
  const met = complete && rate >= TARGET;
  const bareRow = (b) =>
    `| bare client, ${b.inFlight} in flight, ${b.keepAlive ? 'keep-alive' : 'no keep-alive (new connection per request)'} | ${b.rate.toFixed(0)} requests/s (${b.requests} in ${b.seconds.toFixed(2)} s${b.failures ? `, ${b.failures} failed` : ''}); CPU client ${b.clientCpu.toFixed(1)} s, subscribers ${b.subscriberCpu.toFixed(1)} s |`;
  const report = `
## Webhook worker — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC

Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL ${pgVersion}; load average before the run ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min), after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}.
Command: \`node bench/webhooks/run.mjs --leads ${leadCount} --per-lead ${perLead} --subscribers ${subscriberCount} --concurrency ${concurrency}\`${process.env.WORKER_NODE_ARGS ? ` with WORKER_NODE_ARGS="${process.env.WORKER_NODE_ARGS}"` : ''}
Setup: one webhook-worker process (default concurrency: 48 fan-out jobs, 96 delivery jobs, each going down its chain, 192 send slots for the heads fan-outs claim; default retry schedule, WEBHOOK_ALLOW_PRIVATE_TARGETS=true), started and idle first; ${subscriberCount} subscriptions (events ["*"], outcomes ["*"]) to ${subscriberCount} node:http servers on loopback in one child process (204, no work). ${activityCount} \`event\` activities (${leadCount} leads × ${perLead} activities each, so ${leadCount * subscriberCount} chains of ${perLead}) inserted with SQL in one transaction with their outbox rows (topic 'activity', default next_relay_at), then their activity jobs enqueued as the activity path's fast path does (addBulk, 500 at a time: ${((enqueuedAt - committedAt) / 1000).toFixed(1)} s); the outbox relay covers what is still open after 10 s. Latency is from the activity's occurred_at (the inserting transaction's now(), + i ms within a lead) to the subscriber's receipt, so it includes the enqueueing and the queue of a ${activityCount}-activity burst.

| figure | value |
|---|---|
| **deliveries per second** (commit of the activities → last receipt) | **${rate.toFixed(0)}/s** (${first.size} distinct deliveries received in ${wallSeconds.toFixed(1)} s); first to last receipt ${busySeconds.toFixed(1)} s (${(first.size / busySeconds).toFixed(0)}/s); busiest second ${peak} |
| receipts in each second from the commit | ${timeline.join(', ')} |
| activity created → received p50 / p99 / max | ${ms(percentile(latencies, 0.5))} / ${ms(percentile(latencies, 0.99))} / ${ms(latencies.at(-1) ?? Number.NaN)} (n = ${latencies.length}) |
| deliveries succeeded / failed / rows | ${checks.succeeded} / ${checks.failed} / ${checks.deliveries} (expected ${expected}) |
| attempt rows recorded (204 answers) | ${checks.attempts} (${checks.attempts_204}); deliveries with more than one attempt: ${checks.attempted_twice} |
| lost ((activity, subscriber) never received) / duplicate receipts (same subscriber, same webhook-id) | ${lost} / ${duplicates} (${receipts.length} requests received) |
| outbox rows still open / re-sent by the relay | ${checks.outbox_open} / ${relayed} relayed in all |
| worker's own attempt time (leadhook_webhook_attempt_duration_seconds) mean | ${attemptCount ? ms((attemptSum / attemptCount) * 1e3) : 'n/a'} over ${attemptCount} attempts |
${bareRow(bare)}
${variants.map(bareRow).join('\n')}
| **ratio worker deliveries/s ÷ bare client requests/s** (${concurrency} in flight, keep-alive) | **${(rate / bare.rate).toFixed(3)}** (bare client got ${bareReceived} requests to the subscribers over its three runs) |
| target: ≥ ${TARGET} deliveries/s, attempt rows recorded, zero lost | ${met ? 'met' : `**not met**${complete ? ' (complete: nothing lost, every attempt recorded)' : ''}`} |
| PostgreSQL per delivery: commits / rows returned | ${(dbStats.commits / Math.max(1, first.size)).toFixed(1)} / ${(dbStats.returned / Math.max(1, first.size)).toFixed(0)} |
| rows read per table (seq scans: rows read; index rows fetched) | ${tables.map((t) => `${t.relname}: ${t.seq_scan} seq scans reading ${t.seq_read} rows, ${t.idx_fetch} by index`).join('; ')} |
| CPU per delivery: worker / PostgreSQL (this run's backends) / Redis / subscribers | ${perDelivery(cpu.worker)} / ${perDelivery(cpu.postgres)} / ${perDelivery(cpu.redis)} / ${perDelivery(cpu.subscribers)} (every postgres process on the machine, other sessions' included: ${perDelivery(cpu.postgresAll)}) |
| CPU used, insert → all succeeded (${runSeconds.toFixed(1)} s; of ${(cpus().length * runSeconds).toFixed(0)} core-seconds) | worker ${cpu.worker.toFixed(1)} s (${((100 * cpu.worker) / runSeconds).toFixed(0)} % of a core), PostgreSQL ${cpu.postgres.toFixed(1)} s (this run's backends), Redis ${cpu.redis.toFixed(1)} s, subscribers ${cpu.subscribers.toFixed(1)} s, bench ${cpu.loader.toFixed(1)} s |
| machine in that time: busy / idle / stolen | ${cpu.busy.toFixed(1)} s / ${cpu.idle.toFixed(1)} s / ${cpu.steal.toFixed(1)} s (other sessions' work included) |
`;
  process.stdout.write(report);
  if (args.out) appendFileSync(resolve(root, args.out), report);
  exitCode = met ? 0 : complete ? 2 : 1;
} finally {
  await stopChildren(children);
  await scratch.drop();
}
process.exit(exitCode);
