#!/usr/bin/env node
// Intake benchmark (issue: "Foundation, lead intake…" › Benchmark).
//
// Runs the real intake process (services/intake/dist/main.js, so `pnpm build`
// first) against a scratch database, posts DISTINCT valid leads with autocannon
// (64 connections, 20 s by default), then — in the same run, on the same
// PostgreSQL server — has pgbench do the same durable write the intake does for
// an accepted lead (lead + submission + outbox rows in one transaction). The
// ratio of the two rates is the figure: this machine is noisy, absolute numbers
// are not. Afterwards every lead id answered with 201 is looked up in PostgreSQL.
//
// Usage: node bench/intake/run.mjs [--duration 20] [--connections 64] [--out bench/RESULTS.md]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import {
  AUSTIN,
  benchArgs,
  benchLead,
  cpuSeconds,
  cpuSnapshot,
  createBenchTenant,
  freePort,
  machineSecondsBetween,
  machineTicks,
  ownCpuSecondsSince,
  postgresPids,
  redisPids,
  redisUrl,
  root,
  run,
  scratchDatabase,
  sql,
} from '../lib.mjs';

const args = benchArgs(
  { duration: 20, connections: 64, warmup: 3, port: 3900 },
  { out: { type: 'string' } },
);
const { duration, connections } = args;
const scratch = scratchDatabase('leadhook_bench');
const dbUrl = scratch.url;

// --- a fresh database with one account, playbook and unlimited source ---------
await scratch.drop();
await scratch.setUp();
const { accountId, playbookId, sourceId, intakeKey } = await createBenchTenant(dbUrl);

// --- the intake process ----------------------------------------------------------
const port = args.port;
const intake = spawn(
  'node',
  [
    ...(process.env.INTAKE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    'services/intake/dist/main.js',
  ],
  {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      INTAKE_PORT: String(port),
      // The operators' port (metrics), one the machine has free.
      INTAKE_INTERNAL_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: `bench-${randomBytes(3).toString('hex')}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    const r = await fetch(`${base}/readyz`);
    if (r.ok) break;
  } catch {}
  if (i > 100) throw new Error('intake did not become ready');
  await new Promise((r) => setTimeout(r, 100));
}

// Distinct, valid US numbers: Austin (512) exchanges 200-999, lines 0000-9999.
let seq = 0;
const lead = () => benchLead(seq++, { areaCode: '512', place: AUSTIN });

const accepted = [];
const statuses = new Map();
function load(seconds) {
  return autocannon({
    url: `${base}/marketing_sources/${accountId}/${intakeKey}`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: lead() }),
        onResponse: (status, body) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 201) accepted.push(JSON.parse(body).lead_id);
        },
      },
    ],
  });
}

await load(args.warmup);
accepted.length = 0;
statuses.clear();
const pgPidsBefore = postgresPids();
const cpuBefore = cpuSnapshot({ intake: [intake.pid], postgres: pgPidsBefore });
const result = await load(duration);
const cpu = {
  intake: cpuSeconds([intake.pid]) - cpuBefore.intake,
  // Backends that exited during the run are not counted; the pool keeps them open.
  postgres: cpuSeconds(postgresPids()) - cpuBefore.postgres,
  loader: ownCpuSecondsSince(cpuBefore.loader),
  redis: cpuSeconds(redisPids()) - cpuBefore.redis,
  machine: machineSecondsBetween(cpuBefore.machine, machineTicks()),
};
intake.kill('SIGTERM');
await new Promise((r) => intake.once('exit', r));

// --- every 201 lead is in PostgreSQL ----------------------------------------------
const [{ found }] = await sql(
  dbUrl,
  'SELECT count(*)::int AS found FROM leads WHERE id = ANY($1)',
  [accepted],
);

// --- pgbench: the same durable write, same server, same run ------------------------
// Two scripts: what the issue names (lead + outbox row in one transaction), and
// the intake's whole write (lead + submission + outbox). The first is the
// stricter limit (less work per transaction, so more tps); the ratio is taken
// against it, and the second is reported beside it.
const dir = mkdtempSync(join(tmpdir(), 'leadhook-bench-'));
const leadInsert = `INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email, first_name, last_name,
  fields, canonical, extra, external_id, tcpa_opt_in_token, tcpa_opt_in_url, consent_ip, consent_user_agent, received_at)
VALUES ('lead_pgb_' || :n || '_' || :m || '_' || :client_id, '${accountId}', '${sourceId}', 'bench', '${playbookId}', '+1512' || :n, 'b' || :n || '@example.com',
  'Bench', 'Lead', '{"first_name":"Bench","last_name":"Lead","email":"b@example.com","phone":"+15125550100","current_insurance_carrier":"Acme Mutual","current_insurance_coverage":"100/300/100","current_residence_address":"123 Main St","current_residence_city":"Austin","current_residence_state":"TX","current_residence_zip":"78701","date_of_birth":"1985-04-12","gender":"female","marital_status":"married","credit_rating":"good"}',
  '{"gender":"female","marital_status":"married","credit_rating":"good"}', '{}', 'ext', 'tok', 'https://quotes.example.com/consent', '127.0.0.1', 'pgbench', now());`;
const submissionInsert = `INSERT INTO submissions (id, account_id, source_id, result, lead_id, external_id, ip, user_agent)
VALUES ('subm_pgb_' || :n || '_' || :m || '_' || :client_id, '${accountId}', '${sourceId}', 'accepted', 'lead_pgb_' || :n || '_' || :m || '_' || :client_id, 'ext', '127.0.0.1', 'pgbench');`;
const outboxInsert = `INSERT INTO outbox (topic, payload) VALUES ('enrollment', jsonb_build_object('lead_id', 'lead_pgb_' || :n || '_' || :m || '_' || :client_id));`;

function pgbench(name, statements) {
  const script = join(dir, `${name}.sql`);
  writeFileSync(
    script,
    [
      '\\set n random(1, 2000000000)',
      '\\set m random(1, 2000000000)',
      'BEGIN;',
      ...statements,
      'COMMIT;',
      '',
    ].join('\n'),
  );
  const out = run('pgbench', [
    '-n',
    '-c',
    String(connections),
    '-j',
    '2',
    '-T',
    String(duration),
    '-M',
    'prepared',
    '-f',
    script,
    dbUrl,
  ]);
  return Number(/tps = ([\d.]+)/.exec(out)?.[1]);
}
const pgbenchTps = pgbench('lead-outbox', [leadInsert, outboxInsert]);
const pgbenchFullTps = pgbench('lead-submission-outbox', [
  leadInsert,
  submissionInsert,
  outboxInsert,
]);

// --- report -------------------------------------------------------------------------
const leadsPerSecond = accepted.length / duration;
const ratio = leadsPerSecond / pgbenchTps;
const errors =
  result.errors +
  result.timeouts +
  [...statuses].filter(([s]) => s !== 201).reduce((a, [, n]) => a + n, 0);
const pgVersion = (await sql(dbUrl, 'SHOW server_version'))[0].server_version;
const report = `
## Intake — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC

Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL ${pgVersion}, one intake process.
Command: \`pnpm build && node bench/intake/run.mjs --duration ${duration} --connections ${connections}\`

| figure | value |
|---|---|
| accepted leads/s (201) | ${leadsPerSecond.toFixed(0)} |
| latency p50 / p99 | ${result.latency.p50} ms / ${result.latency.p99} ms |
| pgbench: lead + outbox row, one transaction (${connections} clients, prepared) | ${pgbenchTps.toFixed(0)} tps |
| pgbench: lead + submission + outbox row (the intake's whole write) | ${pgbenchFullTps.toFixed(0)} tps |
| **ratio intake / pgbench (lead + outbox)** | **${ratio.toFixed(2)}** (target ≥ 0.5); against the whole write ${(leadsPerSecond / pgbenchFullTps).toFixed(2)} |
| responses by status | ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')} |
| errors (non-201, socket errors, timeouts) | ${errors} |
| 201 leads found in PostgreSQL afterwards | ${found} of ${accepted.length} |
| CPU per accepted lead: intake / PostgreSQL / load generator | ${((cpu.intake / accepted.length) * 1e3).toFixed(2)} ms / ${((cpu.postgres / accepted.length) * 1e3).toFixed(2)} ms / ${((cpu.loader / accepted.length) * 1e3).toFixed(2)} ms |
| CPU used during the run (of ${cpus().length * duration} core-seconds) | intake ${cpu.intake.toFixed(1)} s, PostgreSQL ${cpu.postgres.toFixed(1)} s, load generator ${cpu.loader.toFixed(1)} s, Redis ${cpu.redis.toFixed(1)} s |
| machine during the run: busy / idle / stolen by the hypervisor | ${cpu.machine.busy.toFixed(1)} s / ${cpu.machine.idle.toFixed(1)} s / ${cpu.machine.steal.toFixed(1)} s |
`;
process.stdout.write(report);
if (args.out) appendFileSync(resolve(root, args.out), report);
await scratch.drop();
process.exit(found === accepted.length && errors === 0 ? 0 : 1);
