#!/usr/bin/env node
// One slow subscriber never delays another: the healthy subscriber's delivery
// latency while a subscriber that hangs has a backlog, with the per-subscription
// cap (WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION) and without it (1000).
//
// For each mode, against a scratch database: one account, playbook and source, two
// subscriptions (events ["*"]) on loopback servers in this process: one that
// accepts connections and never answers (its open connections counted), one that
// answers 204 and records the receipt time of each webhook-id. BACKLOG leads with
// one activity each and its delivery to the hanging subscription, due, are
// inserted with SQL (the reconciler enqueues them). The real webhook-worker
// (services/webhook-worker/dist/main.js, so `pnpm build` first; default settings
// but the cap) is started, and once the hanging subscriber has connections, a
// steady stream of RATE activities a second for SECONDS seconds, each of a lead of
// its own, is written with SQL (activity + outbox row, one statement) and its
// activity job enqueued as the activity path's fast path does. Both subscriptions
// select them. Measured: the healthy subscriber's latency from each activity's
// commit to its receipt (p50 / p99 / max), how many arrived within WAIT seconds of
// the stream's end, and the hanging subscriber's most connections open at once.
//
// Usage: node bench/webhooks/fair.mjs [--backlog 10000] [--rate 50] [--seconds 10]
//          [--cap 32] [--wait 30] [--uncapped 1] [--out bench/RESULTS.md]
//   --uncapped 0 skips the run without the cap (1000).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import { QueueSet } from '../../packages/queue/dist/index.js';
import {
  benchArgs,
  createBenchTenant,
  fakeId,
  freePort,
  redisUrl,
  root,
  scratchDatabase,
  sleep,
  sql,
  stopChildren,
  waitReady,
} from '../lib.mjs';

const args = benchArgs(
  { backlog: 10_000, rate: 50, seconds: 10, cap: 32, wait: 30, uncapped: 1 },
  { out: { type: 'string' } },
);

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

async function listen(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** One run: the worker with WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION = `cap`. */
async function runMode(cap) {
  const scratch = scratchDatabase(`leadhook_bench_fair_${randomBytes(3).toString('hex')}`);
  const dbUrl = scratch.url;
  const queuePrefix = `bench-fair-${randomBytes(3).toString('hex')}`;
  const children = [];
  const hanging = { open: 0, maxOpen: 0, connections: 0 };
  const receipts = new Map();
  const hangingServer = await listen(() => {});
  hangingServer.on('connection', (socket) => {
    hanging.connections++;
    hanging.open++;
    hanging.maxOpen = Math.max(hanging.maxOpen, hanging.open);
    socket.on('close', () => hanging.open--);
  });
  const healthyServer = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (!receipts.has(id)) receipts.set(id, Date.now());
      res.statusCode = 204;
      res.end();
    });
  });
  const producer = new QueueSet({ redisUrl, prefix: queuePrefix });
  try {
    await scratch.setUp();
    const { accountId, playbookId, sourceId } = await createBenchTenant(dbUrl);
    const [hangingSub, healthySub] = [fakeId('sub'), fakeId('sub')];
    for (const [id, server] of [
      [hangingSub, hangingServer],
      [healthySub, healthyServer],
    ]) {
      await sql(
        dbUrl,
        `INSERT INTO subscriptions (id, account_id, url, events, outcomes, secret)
         VALUES ($1, $2, $3, '{*}', '{}', $4)`,
        [
          id,
          accountId,
          `http://127.0.0.1:${server.address().port}/hook`,
          `whsec_${randomBytes(32).toString('base64')}`,
        ],
      );
    }
    const streamCount = args.rate * args.seconds;
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    // The backlog's leads and the stream's, then the backlog's activities and due deliveries.
    await client.query(
      `INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                          first_name, last_name, fields, canonical, external_id,
                          tcpa_opt_in_token, tcpa_opt_in_url, received_at)
       SELECT 'lead_' || n, $1, $2, 'bench', $3, '+14155550100', 'bench@example.com', 'Bench',
              'Lead', '{}', '{}', 'ext-' || n, 'tok-' || n, 'https://quotes.example.com/consent',
              now()
         FROM generate_series(1, $4) AS n`,
      [accountId, sourceId, playbookId, args.backlog + streamCount],
    );
    await client.query(
      `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note,
                               data, occurred_at)
       SELECT 'act_backlog_' || n, $1, 'lead_' || n, 'event', 'started', 'bench', '{}',
              now() - interval '1 minute'
         FROM generate_series(1, $2) AS n`,
      [accountId, args.backlog],
    );
    await client.query(
      `INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, activity_occurred_at,
                               next_attempt_at)
       SELECT 'dlv_backlog_' || n, 'act_backlog_' || n, $1, 'lead_' || n,
              now() - interval '1 minute', now() - interval '1 minute' + n * interval '1 ms'
         FROM generate_series(1, $2) AS n`,
      [hangingSub, args.backlog],
    );

    const workerPort = await freePort();
    const worker = spawn('node', ['services/webhook-worker/dist/main.js'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: queuePrefix,
        LOG_LEVEL: 'warn',
        WEBHOOK_WORKER_PORT: String(workerPort),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION: String(cap),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(worker);
    await waitReady(`http://127.0.0.1:${workerPort}`, 'webhook-worker');
    while (producer.redis.status !== 'ready') await sleep(20);
    // The reconciler's first round (5 s) hands the backlog to the worker.
    for (let i = 0; i < 300 && hanging.connections === 0; i++) await sleep(100);

    const committed = new Map();
    const started = Date.now();
    for (let i = 0; i < streamCount; i++) {
      const wait = started + (i * 1000) / args.rate - Date.now();
      if (wait > 0) await sleep(wait);
      const activityId = fakeId('act');
      await client.query(
        `WITH a AS (
           INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label,
                                   note, data, occurred_at)
           VALUES ($1, $2, $3, 'event', 'started', 'bench', '{}', now()) RETURNING id)
         INSERT INTO outbox (topic, payload)
         SELECT 'activity', jsonb_build_object('activity_id', id) FROM a`,
        [activityId, accountId, `lead_${args.backlog + i + 1}`],
      );
      committed.set(activityId, Date.now());
      void producer.enqueue('activity', { activity_id: activityId }).catch(() => {});
    }
    const streamSeconds = (Date.now() - started) / 1000;
    const deadline = Date.now() + args.wait * 1000;
    const arrived = () => [...committed.keys()].filter((id) => receipts.has(id)).length;
    while (arrived() < committed.size && Date.now() < deadline) await sleep(200);
    const latencies = [...committed]
      .filter(([id]) => receipts.has(id))
      .map(([id, at]) => (receipts.get(id) ?? at) - at)
      .sort((a, b) => a - b);
    await client.end();
    return {
      cap,
      streamCount,
      streamSeconds,
      received: latencies.length,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1) ?? Number.NaN,
      hangingMaxOpen: hanging.maxOpen,
      hangingConnections: hanging.connections,
    };
  } finally {
    await stopChildren(children);
    await producer.close();
    hangingServer.closeAllConnections();
    hangingServer.close();
    healthyServer.close();
    await scratch.drop().catch(() => {});
  }
}

const loadBefore = loadavg();
const runs = [];
for (const cap of args.uncapped ? [args.cap, 1000] : [args.cap]) runs.push(await runMode(cap));
const loadAfter = loadavg();

const fmt = (ms) => (Number.isNaN(ms) ? '—' : `${Math.round(ms)} ms`);
const [capped, uncapped] = runs;
const ratio =
  capped && uncapped
    ? `Ratio of the healthy p99 without the cap to with it: ${(uncapped.p99 / capped.p99).toFixed(1)} (over the deliveries that arrived; ${uncapped.streamCount - uncapped.received} never arrived without the cap).`
    : '';
const lines = [
  `## Webhook worker, one subscriber hanging — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' / ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min).`,
  `Command: \`node bench/webhooks/fair.mjs --backlog ${args.backlog} --rate ${args.rate} --seconds ${args.seconds} --cap ${args.cap} --wait ${args.wait} --uncapped ${args.uncapped}\``,
  `Setup: one webhook-worker process (default settings: 96 delivery jobs, 48 fan-outs, 192 send slots, WEBHOOK_TIMEOUT_MS 15 s), a subscriber that never answers with ${args.backlog} due deliveries (one per lead), and a healthy one (204) beside it; both select a stream of ${args.rate} activities/s for ${args.seconds} s (one per new lead). Latency: the activity's commit to the healthy subscriber's receipt.`,
  '',
  '| WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION | healthy received (within the stream + ' +
    `${args.wait} s) | healthy p50 / p99 / max | hanging subscriber's connections open at most / in all |`,
  '|---|---|---|---|',
  ...runs.map(
    (r) =>
      `| ${r.cap}${r.cap === 1000 ? ' (no cap)' : ''} | ${r.received} / ${r.streamCount} (stream took ${r.streamSeconds.toFixed(1)} s) | ${fmt(r.p50)} / ${fmt(r.p99)} / ${fmt(r.max)} | ${r.hangingMaxOpen} / ${r.hangingConnections} |`,
  ),
  '',
  ratio,
  '',
];
const text = lines.join('\n');
console.log(text);
if (args.out) appendFileSync(args.out, `\n${text}`);
