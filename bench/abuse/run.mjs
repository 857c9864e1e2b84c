#!/usr/bin/env node
// Abuse benchmark: what hostile or careless clients cost everyone else.
//
// Runs the built intake and api processes (`pnpm build` first) against a scratch
// database, and measures the healthy path (a valid lead POSTed to intake, intake's
// /healthz, and GET /api/v1/account with a good key) twice in the same run:
//   quiet  — the probes alone;
//   attack — the probes while attackers run at the same time:
//     * form bodies built to be slow to parse: 16,000 repeated `a=1` pairs, 8,000
//       distinct keys, `a[b][c]…` nesting, one 60 KiB value (each within the
//       64 KiB body cap, so they are parsed, not refused by size);
//     * JSON bodies: 6,000 keys, 20,000 levels of nesting, an extra field nested
//       5,000 levels in a valid lead, one 60 KiB value;
//     * slow clients: connections that send their headers one byte a second, and
//       others that send a body one byte a second, held open for the whole phase;
//     * a wrong-key flood on the api.
// The figure is the probes' p50/p99 under attack beside the quiet run's: a ratio
// near 1 means the attacks cost the healthy path little. Each attack's answers
// are counted by status, with the slowest answer each got; a slow client's
// connection time is reported as when the server cut it. The attackers send from
// another loopback address (127.0.0.2) than the probes (127.0.0.1), as a real
// attacker is not the owner: the api's per-address limit is theirs alone.
//
// Every request goes to loopback, the attackers are bounded by the phase's
// duration, and the script stops on its own.
//
// Usage: node bench/abuse/run.mjs [--seconds 30] [--attackers 1] [--slow 50] [--out bench/RESULTS.md]
// (--seconds: each phase; longer than the headers timeout, 10 s, with a margin,
// so that the slow clients can be seen cut.)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import {
  benchArgs,
  benchLead,
  createBenchTenant,
  freePort,
  machineTicks,
  redisUrl,
  root,
  run,
  scratchDatabase,
  sleep,
  waitReady,
} from '../lib.mjs';

const args = benchArgs({ seconds: 30, attackers: 1, slow: 50 }, { out: { type: 'string' } });
const { seconds, attackers, slow: slowClients } = args;
const scratch = scratchDatabase('leadhook_bench_abuse');
const dbUrl = scratch.url;

await scratch.drop();
await scratch.setUp();
const tenant = await createBenchTenant(dbUrl);
const { api_key: apiKey } = JSON.parse(
  run('node', ['scripts/dist/leadhook.js', 'account', 'create', 'abuse-bench'], {
    DATABASE_URL: dbUrl,
  }),
);

const [intakePort, apiPort] = [await freePort(), await freePort()];
const env = {
  ...process.env,
  DATABASE_URL: dbUrl,
  REDIS_URL: redisUrl,
  INTAKE_PORT: String(intakePort),
  API_PORT: String(apiPort),
  INTAKE_INTERNAL_PORT: String(await freePort()),
  API_INTERNAL_PORT: String(await freePort()),
  LOG_LEVEL: 'warn',
  QUEUE_PREFIX: `bench-abuse-${randomBytes(3).toString('hex')}`,
};
const children = ['intake', 'api'].map((name) =>
  spawn('node', [`services/${name}/dist/main.js`], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
);
const intakeBase = `http://127.0.0.1:${intakePort}`;
const apiBase = `http://127.0.0.1:${apiPort}`;
await waitReady(intakeBase, 'intake');
await waitReady(apiBase, 'api');
const postPath = `/marketing_sources/${tenant.accountId}/${tenant.intakeKey}`;

/** Where the attackers send from: not the probes' address. */
const ATTACKER_ADDRESS = '127.0.0.2';

/** One HTTP request on `agent`; resolves with its status (0: failed) and time in ms. */
function send(
  agent,
  base,
  { method = 'GET', path, headers = {}, body },
  localAddress = '127.0.0.1',
) {
  const started = performance.now();
  return new Promise((done) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent,
        localAddress,
        headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers,
      },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', () => done({ status: 0, ms: performance.now() - started }));
    req.setTimeout(60_000, () => req.destroy());
    req.end(body);
  });
}

const percentile = (sorted, p) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// --- the healthy path ----------------------------------------------------------
let leadSeq = 0;
const probes = {
  'valid lead → intake': () => ({
    base: intakeBase,
    method: 'POST',
    path: postPath,
    headers: { 'content-type': 'application/json' },
    body: benchLead(leadSeq++, { tag: `abuse${leadSeq}` }),
  }),
  'intake /healthz': () => ({ base: intakeBase, path: '/healthz' }),
  'GET /api/v1/account': () => ({
    base: apiBase,
    path: '/api/v1/account',
    headers: { authorization: `Bearer ${apiKey}` },
  }),
};

/** Each probe every `everyMs`, one at a time per probe, until `until`. */
async function runProbes(until, everyMs = 25) {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const results = Object.fromEntries(Object.keys(probes).map((name) => [name, []]));
  await Promise.all(
    Object.entries(probes).map(async ([name, make]) => {
      while (Date.now() < until) {
        const { base, ...spec } = make();
        const { status, ms } = await send(agent, base, spec);
        results[name].push({ status, ms });
        await sleep(everyMs);
      }
    }),
  );
  agent.destroy();
  return results;
}

// --- the attacks ---------------------------------------------------------------
const CAP = 60 * 1024;
const repeat = (unit, joiner, n) => Array.from({ length: n }, unit).join(joiner);
/** A POST of `text`, sent as `contentType`, to the source's intake URL. */
const postOf = (contentType, text) => ({
  base: intakeBase,
  method: 'POST',
  path: postPath,
  headers: { 'content-type': contentType },
  body: text,
});
const formOf = (text) => postOf('application/x-www-form-urlencoded', text);
const jsonOf = (text) => postOf('application/json', text);
const deep = 20_000;
const attacks = {
  'form: 16,000 × a=1': formOf(repeat(() => 'a=1', '&', 16_000)),
  'form: 8,000 distinct keys': formOf(repeat((_, i) => `k${i}=1`, '&', 8_000)),
  'form: a[b][c]… nesting': formOf(`a${'[b]'.repeat(Math.floor(CAP / 3) - 2)}=1`),
  'form: one 60 KiB value': formOf(`first_name=${'x'.repeat(CAP - 11)}`),
  'JSON: 6,000 keys': jsonOf(`{${repeat((_, i) => `"k${i}":1`, ',', 6_000)}}`),
  'JSON: 20,000 levels': jsonOf(`${'['.repeat(deep)}${']'.repeat(deep)}`),
  'JSON: extra field nested 5,000 levels': jsonOf(
    benchLead(0).replace(/}$/, `,"nested":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`),
  ),
  'JSON: one 60 KiB value': jsonOf(`{"first_name":"${'x'.repeat(CAP - 20)}"}`),
  'api: wrong keys': {
    base: apiBase,
    path: '/api/v1/account',
    headers: { authorization: `Bearer lh_${randomBytes(24).toString('base64url')}` },
  },
};

/** `attackers` clients per attack, each sending it again as soon as it is answered. */
async function runAttacks(until) {
  const agent = new Agent({ keepAlive: true, maxSockets: attackers * Object.keys(attacks).length });
  const results = {};
  await Promise.all(
    Object.entries(attacks).flatMap(([name, { base, ...spec }]) => {
      results[name] = [];
      return Array.from({ length: attackers }, async () => {
        while (Date.now() < until)
          results[name].push(await send(agent, base, spec, ATTACKER_ADDRESS));
      });
    }),
  );
  agent.destroy();
  return results;
}

/**
 * Slow clients: half trickle their request headers, half a declared 60 KiB body,
 * one byte a second, until the phase ends. Resolves with how long each
 * connection lasted before the server closed it (null: still open at the end).
 */
function runSlowClients(until) {
  const port = intakePort;
  return Promise.all(
    Array.from(
      { length: slowClients },
      (_, i) =>
        new Promise((done) => {
          const started = Date.now();
          const socket = connect({ port, host: '127.0.0.1', localAddress: ATTACKER_ADDRESS });
          const head =
            i % 2 === 0
              ? `POST ${postPath} HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(4096)}`
              : `POST ${postPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${CAP}\r\n\r\n${'{"a":"'}${'x'.repeat(CAP)}`;
          let sent = i % 2 === 0 ? 0 : head.indexOf('\r\n\r\n') + 4;
          if (sent > 0) socket.write(head.slice(0, sent));
          let closedAt = null;
          const timer = setInterval(() => {
            if (Date.now() >= until || sent >= head.length) {
              clearInterval(timer);
              socket.destroy();
              return;
            }
            socket.write(head[sent++]);
          }, 1000);
          socket.on('error', () => {});
          socket.on('close', () => {
            clearInterval(timer);
            if (Date.now() < until) closedAt = Date.now() - started;
            done(closedAt);
          });
        }),
    ),
  );
}

// --- the run -------------------------------------------------------------------
const quietStart = machineTicks();
const quiet = await runProbes(Date.now() + seconds * 1000);
const quietTicks = machineTicks();
const attackUntil = Date.now() + seconds * 1000;
const [attacked, attackResults, slowLived] = await Promise.all([
  runProbes(attackUntil),
  runAttacks(attackUntil),
  runSlowClients(attackUntil),
]);
const attackTicks = machineTicks();

for (const child of children) child.kill('SIGTERM');
await Promise.all(children.map((c) => new Promise((r) => c.once('exit', r))));
await scratch.drop();

// --- report --------------------------------------------------------------------
const summary = (rows) => {
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  return {
    n: rows.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: ms.at(-1) ?? Number.NaN,
  };
};
const byStatus = (rows) => {
  const counts = new Map();
  for (const { status } of rows) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s || 'failed'}: ${n}`)
    .join(', ');
};
const f = (ms) => (Number.isNaN(ms) ? '–' : `${ms.toFixed(1)} ms`);
const busy = (a, b) => ((b.busy - a.busy) / 100).toFixed(1);
const cut = slowLived.filter((ms) => ms !== null).sort((a, b) => a - b);
const healthyOk = Object.values(attacked).every((rows) =>
  rows.every((r) => r.status >= 200 && r.status < 300),
);

const report = `
## Abuse — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC

Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; one intake and one api process.
Command: \`pnpm build && node bench/abuse/run.mjs --seconds ${seconds} --attackers ${attackers} --slow ${slowClients}\`
Machine busy: ${busy(quietStart, quietTicks)} core-s quiet, ${busy(quietTicks, attackTicks)} core-s under attack (of ${cpus().length * seconds}).

Healthy path, the same probes (one at a time each, 25 ms apart), quiet then under attack:

| probe | quiet p50 / p99 | under attack p50 / p99 (max) | p99 ratio | answers under attack |
|---|---|---|---|---|
${Object.keys(probes)
  .map((name) => {
    const q = summary(quiet[name]);
    const a = summary(attacked[name]);
    return `| ${name} | ${f(q.p50)} / ${f(q.p99)} | ${f(a.p50)} / ${f(a.p99)} (${f(a.max)}) | ${(a.p99 / q.p99).toFixed(1)} | ${byStatus(attacked[name])} |`;
  })
  .join('\n')}

Attacks (${attackers} clients each, back to back):

| attack | requests | answers | p50 / p99 / max answer time |
|---|---|---|---|
${Object.entries(attackResults)
  .map(([name, rows]) => {
    const s = summary(rows);
    return `| ${name} | ${s.n} | ${byStatus(rows)} | ${f(s.p50)} / ${f(s.p99)} / ${f(s.max)} |`;
  })
  .join('\n')}

Slow clients (${slowClients}, a byte a second, half in the headers, half in a body): ${cut.length} cut by the server (after ${f(cut[0] ?? Number.NaN)} to ${f(cut.at(-1) ?? Number.NaN)}), ${slowLived.length - cut.length} still open when the phase ended.
Every healthy-path answer under attack was 2xx: ${healthyOk ? 'yes' : 'NO'}.
`;
process.stdout.write(report);
if (args.out) appendFileSync(resolve(root, args.out), report);
process.exit(healthyOk ? 0 : 1);
