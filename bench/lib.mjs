// What the benchmarks share: the checkout's root, a scratch database, running
// the built scripts, free ports, readiness, and CPU accounting from /proc (where
// the time goes: each process's user+system time, and the machine's busy, idle
// and stolen ticks, so a noisy neighbour shows).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The PostgreSQL server's admin database: the benchmarks create their scratch databases there. */
export const adminUrl =
  process.env.BENCH_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The scratch database `name` on adminUrl's server: `url` to connect to it,
 * `setUp()` to create it and apply every migration with the built scripts, and
 * `drop()` it (closing its connections first; nothing happens if it does not exist).
 */
export function scratchDatabase(name) {
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  return {
    name,
    url,
    async setUp() {
      await sql(adminUrl, `CREATE DATABASE ${name}`);
      run('node', ['scripts/dist/migrate.js'], { DATABASE_URL: url });
    },
    drop: () => sql(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * A benchmark's command line: the numeric options (`--name N`, as numbers, with
 * their defaults) and any `other` parseArgs options (as parseArgs gives them).
 */
export function benchArgs(numbers, other = {}) {
  const options = { ...other };
  for (const [name, value] of Object.entries(numbers)) {
    options[name] = { type: 'string', default: String(value) };
  }
  const { values } = parseArgs({ options });
  for (const name of Object.keys(numbers)) values[name] = Number(values[name]);
  return values;
}

/**
 * An id of the shape the services check: prefix + 26 Crockford base32 characters,
 * the first 10 the time now as newId's: the history tables are partitioned by the
 * month of that time (docs/operations.md, "History partitions"), and a random one
 * fell in no partition.
 */
export function fakeId(prefix) {
  const crockford = '0123456789abcdefghjkmnpqrstvwxyz';
  let time = '';
  for (let t = Date.now(), i = 0; i < 10; i++, t = Math.floor(t / 32)) {
    time = crockford[t % 32] + time;
  }
  return `${prefix}_${time}${Array.from(randomBytes(16), (b) => crockford[b % 32]).join('')}`;
}

/**
 * The one account, playbook (with `steps`) and marketing source (no rate limit) a
 * benchmark works in, inserted into the scratch database at `dbUrl`.
 */
export async function createBenchTenant(dbUrl, steps = []) {
  const tenant = {
    accountId: fakeId('acc'),
    playbookId: fakeId('pb'),
    sourceId: fakeId('src'),
    intakeKey: randomBytes(24).toString('base64url'),
  };
  await sql(dbUrl, `INSERT INTO accounts (id, name) VALUES ($1, 'bench')`, [tenant.accountId]);
  await sql(
    dbUrl,
    `INSERT INTO playbooks (id, account_id, name, steps) VALUES ($1, $2, 'bench', $3)`,
    [tenant.playbookId, tenant.accountId, JSON.stringify(steps)],
  );
  await sql(
    dbUrl,
    `INSERT INTO marketing_sources (id, account_id, playbook_id, name, source_type, intake_key, rate_limit)
     VALUES ($1, $2, $3, 'bench', 'vendor', $4, 0)`,
    [tenant.sourceId, tenant.accountId, tenant.playbookId, tenant.intakeKey],
  );
  return tenant;
}

/**
 * Sends a child process (a benchmark's subscriber) `{cmd, ...extra}` over IPC and
 * resolves with `reply[key]` of the first reply that has it.
 */
export function ask(child, cmd, key, extra = {}) {
  return new Promise((resolve) => {
    const onMessage = (msg) => {
      if (key in msg) {
        child.off('message', onMessage);
        resolve(msg[key]);
      }
    };
    child.on('message', onMessage);
    child.send({ cmd, ...extra });
  });
}

/** Runs one statement on a fresh connection and returns its rows. */
export async function sql(url, text, params = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Runs a command in the checkout; throws with its output if it fails. */
export function run(cmd, argv, env = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitReady(base, name) {
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.ok) return;
    } catch {}
    if (i > 150) throw new Error(`${name} did not become ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Sends SIGTERM to each child process still running, and resolves once they have exited. */
export async function stopChildren(children) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  );
}

/** CPU seconds (user + system) of a set of processes. */
export function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / 100;
}

function pidsByComm(match) {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return match(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
      } catch {
        return false;
      }
    });
}
export const postgresPids = () => pidsByComm((c) => c === 'postgres');
export const redisPids = () => pidsByComm((c) => c.startsWith('redis-server'));

/** Machine-wide ticks from /proc/stat. */
export function machineTicks() {
  const f = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f;
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal: steal ?? 0 };
}

/** This process's CPU seconds (user + system) since `usage`, a process.cpuUsage() reading. */
export function ownCpuSecondsSince(usage) {
  const u = process.cpuUsage(usage);
  return (u.user + u.system) / 1e6;
}

/** The machine's busy, idle and stolen seconds between two machineTicks() readings. */
export function machineSecondsBetween(before, after) {
  return {
    busy: (after.busy - before.busy) / 100,
    idle: (after.idle - before.idle) / 100,
    steal: (after.steal - before.steal) / 100,
  };
}

/**
 * One CPU reading for a run's report: the CPU seconds of each group of processes
 * (`{ name: pids }`) and of the Redis server, this process's usage, the machine's
 * ticks and the time. Two readings bracket the measured part of a run.
 */
export function cpuSnapshot(groups) {
  return {
    ...Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, cpuSeconds(pids)])),
    redis: cpuSeconds(redisPids()),
    loader: process.cpuUsage(),
    machine: machineTicks(),
    at: Date.now(),
  };
}

/** The database's commits and rows returned so far (pg_stat_database), for a run's cost per lead. */
export async function databaseCounters(dbUrl) {
  const [counters] = await sql(
    dbUrl,
    `SELECT xact_commit::bigint AS commits, tup_returned::bigint AS returned
       FROM pg_stat_database WHERE datname = current_database()`,
  );
  return counters;
}

/**
 * Where PostgreSQL's reads went, per table: seq scans, rows they read and rows
 * fetched by index. A partitioned table's figures are its partitions' summed
 * (its own counters stay 0), so the history tables are comparable across layouts.
 */
export async function tableReads(dbUrl, tables) {
  return sql(
    dbUrl,
    `SELECT t.name AS relname, sum(s.seq_scan)::bigint AS seq_scan,
            sum(s.seq_tup_read)::bigint AS seq_read, coalesce(sum(s.idx_tup_fetch), 0)::bigint AS idx_fetch
       FROM unnest($1::text[]) AS t(name)
       CROSS JOIN LATERAL (SELECT relid FROM pg_partition_tree(t.name::regclass)
                           UNION SELECT t.name::regclass) p
       JOIN pg_stat_user_tables s ON s.relid = p.relid
      GROUP BY t.name ORDER BY 3 DESC`,
    [tables],
  );
}

/** Index entries read per index of `table`, a partitioned index's summed over its partitions. */
export async function indexReads(dbUrl, table) {
  return sql(
    dbUrl,
    `SELECT i.indexrelid::regclass::text AS name, sum(s.idx_tup_read)::bigint AS n
       FROM pg_index i
       CROSS JOIN LATERAL (SELECT relid FROM pg_partition_tree(i.indexrelid)
                           UNION SELECT i.indexrelid) p
       JOIN pg_stat_user_indexes s ON s.indexrelid = p.relid
      WHERE i.indrelid = $1::regclass
      GROUP BY 1 ORDER BY 1`,
    [table],
  );
}

/**
 * The n-th distinct valid lead (JSON text) the benchmarks post: every field of the
 * intake form, a unique phone (exchanges 200-999, lines 0000-9999 of `areaCode`)
 * and email. San Francisco (415) by default: California has no state contact rule.
 */
export function benchLead(n, { tag = 'bench', areaCode = '415', place = SAN_FRANCISCO } = {}) {
  const exchange = 200 + Math.floor(n / 10000);
  const line = String(n % 10000).padStart(4, '0');
  return JSON.stringify({
    first_name: 'Bench',
    last_name: `Lead${n}`,
    email: `${tag}${n}@example.com`,
    phone: `+1${areaCode}${exchange}${line}`,
    current_insurance_carrier: 'Acme Mutual',
    current_insurance_coverage: '100/300/100',
    ...place,
    date_of_birth: '1985-04-12',
    gender: 'female',
    marital_status: 'married',
    credit_rating: 'good',
    tcpa_opt_in_token: `tok-${n}`,
    tcpa_opt_in_url: 'https://quotes.example.com/consent',
    external_id: `ext-${n}`,
  });
}

export const SAN_FRANCISCO = {
  current_residence_address: '1 Market St',
  current_residence_city: 'San Francisco',
  current_residence_state: 'CA',
  current_residence_zip: '94103',
};
export const AUSTIN = {
  current_residence_address: '123 Main St',
  current_residence_city: 'Austin',
  current_residence_state: 'TX',
  current_residence_zip: '78701',
};
