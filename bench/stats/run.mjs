// Source stats with a million submissions: GET /marketing_sources/{id}/stats's
// three queries under EXPLAIN (ANALYZE, BUFFERS), with the indexes of migration
// 20261122203000_stats_indexes ("after") and with the ones before it ("before",
// the new indexes dropped and the old one rebuilt inside a transaction that is
// rolled back), then the service function itself end to end. The report gives the
// plans of both ranges: the 30-day default, which the indexes are for, and the
// 366-day maximum, where reading the whole table is the right plan.
//
//   pnpm build && node bench/stats/run.mjs [--submissions 1000000] [--others 250000]
//     [--runs 5] [--out bench/RESULTS.md] [--keep]
//
// Against a scratch database (BENCH_ADMIN_URL's server, default the local one):
// bench/stats/load.sql fills it with generate_series (one account; the measured
// source's submissions over the 365 days before the end instant, 80 % accepted,
// 10 % duplicate, 10 % rejected with 1-3 reasons; a second source's submissions;
// an outcome for a third of the leads). The queries are the service's own SQL
// (services/api/dist/stats.queries.js), so the plans are the ones served.
// Timings on this shared 2-core machine are noisy: the buffers (pages touched)
// are the stable measure, and the median of --runs is reported.
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { benchArgs, root, run, scratchDatabase, sql } from '../lib.mjs';

const args = benchArgs(
  { submissions: 1_000_000, others: 250_000, runs: 5 },
  { out: { type: 'string' }, keep: { type: 'boolean', default: false } },
);
const runs = args.runs;
const scratch = scratchDatabase(`leadhook_bench_stats_${randomBytes(3).toString('hex')}`);
const dbUrl = scratch.url;
const END = '2026-11-23T00:00:00.000Z';
const ids = { acc: 'acc_benchstats', pb: 'pb_benchstats', src: 'src_measured', src2: 'src_other' };
const DAY_MS = 86_400_000;

const { submissionsByDaySql, rejectionReasonsByDaySql, outcomesByDaySql, STATS_JIT_OFF } =
  await import(join(root, 'services/api/dist/stats.queries.js'));
const { resolveStatsRange } = await import(join(root, 'services/api/dist/stats.range.js'));
const { sourceStats } = await import(join(root, 'services/api/dist/stats.service.js'));
const { createPrisma } = await import(join(root, 'packages/db/dist/index.js'));

const endDay = new Date(Date.parse(END) - 1).toISOString().slice(0, 10);
const dayBefore = (days) => new Date(Date.parse(END) - days * DAY_MS).toISOString().slice(0, 10);
const RANGES = [
  { name: '30 days (the default)', from: dayBefore(30), to: endDay },
  { name: '366 days (the maximum)', from: dayBefore(366), to: endDay },
];
const queriesFor = (range) => [
  ['by day and result', submissionsByDaySql(ids.src, range)],
  ['rejection reasons by day', rejectionReasonsByDaySql(ids.src, range)],
  ['outcomes by day', outcomesByDaySql(ids.acc, ids.src, range)],
];

/** The indexes before migration 20261122203000, set up inside the caller's transaction. */
const BEFORE = [
  'DROP INDEX submissions_source_id_created_at_result_idx',
  'DROP INDEX submissions_rejected_source_id_created_at_idx',
  'CREATE INDEX submissions_source_id_created_at_idx ON submissions (source_id, created_at)',
  'ANALYZE submissions',
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** EXPLAIN (ANALYZE, BUFFERS) `runs` times after one warm-up; the median run's plan. */
async function explain(client, query) {
  const results = [];
  for (let i = 0; i <= runs; i++) {
    const { rows } = await client.query(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${query.text}`,
      query.values,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)[1]);
    if (i > 0) results.push({ ms, plan });
  }
  const mid = median(results.map((r) => r.ms));
  const chosen = results.find((r) => r.ms === mid);
  const top = /Buffers: (.*)/.exec(chosen.plan)?.[1] ?? 'n/a';
  return {
    median: mid,
    min: Math.min(...results.map((r) => r.ms)),
    buffers: top,
    plan: chosen.plan,
  };
}

async function measure(variant) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    if (variant === 'before') for (const statement of BEFORE) await client.query(statement);
    // What the service sets in each query's transaction (stats.queries.ts).
    if (variant === 'after') await client.query(STATS_JIT_OFF.text);
    const out = [];
    for (const spec of RANGES) {
      const resolved = resolveStatsRange({ from: spec.from, to: spec.to }, new Date(END));
      for (const [name, query] of queriesFor(resolved.range)) {
        out.push({ range: spec.name, name, ...(await explain(client, query)) });
      }
    }
    return out;
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end();
  }
}

/** The service function as the route calls it: three queries in parallel plus the source check. */
async function endToEnd() {
  const prisma = createPrisma({ databaseUrl: dbUrl, poolMax: 4 });
  try {
    const out = [];
    for (const spec of RANGES) {
      const { range } = resolveStatsRange({ from: spec.from, to: spec.to }, new Date(END));
      const times = [];
      let stats;
      for (let i = 0; i <= runs; i++) {
        const started = process.hrtime.bigint();
        stats = await sourceStats(prisma, ids.acc, ids.src, range);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (i > 0) times.push(ms);
      }
      out.push({
        range: spec.name,
        median: median(times),
        min: Math.min(...times),
        stats: stats.stats,
      });
    }
    return out;
  } finally {
    await prisma.$disconnect();
  }
}

const loadBefore = loadavg();
let exitCode = 1;
try {
  await scratch.setUp();
  const loadStarted = Date.now();
  const vars = { ...ids, n: args.submissions, others: args.others, end_at: END };
  run('psql', [
    dbUrl,
    '-q',
    ...Object.entries(vars).flatMap(([k, v]) => ['-v', `${k}=${v}`]),
    '-f',
    join(root, 'bench/stats/load.sql'),
  ]);
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  const [counts] = await sql(
    dbUrl,
    `SELECT (SELECT count(*) FROM submissions)::int AS submissions,
            (SELECT count(*) FROM submissions WHERE source_id = $1)::int AS measured,
            (SELECT count(*) FROM leads)::int AS leads,
            (SELECT count(*) FROM activities)::int AS outcomes,
            (SELECT count(*) FROM pg_inherits WHERE inhparent = 'submissions'::regclass)::int
              AS partitions,
            pg_size_pretty((SELECT sum(pg_relation_size(relid))
                            FROM pg_partition_tree('submissions'))) AS heap,
            current_setting('jit') AS jit, current_setting('shared_buffers') AS shared_buffers,
            current_setting('max_parallel_workers_per_gather') AS parallel,
            version() AS version`,
    [ids.src],
  );
  const indexes = await sql(
    dbUrl,
    // The partitioned tables' indexes, each the sum of its partitions' indexes.
    `SELECT i.indexname AS name,
            pg_size_pretty((SELECT sum(pg_relation_size(relid))
                            FROM pg_partition_tree(to_regclass(i.indexname)))) AS size
     FROM pg_indexes i WHERE i.tablename IN ('submissions', 'activities') ORDER BY 1`,
  );
  // The index build time on this table: what the migration costs (it holds a
  // write lock on submissions while it builds).
  const buildStarted = Date.now();
  await sql(
    dbUrl,
    `BEGIN; CREATE INDEX bench_probe ON submissions (source_id, created_at, result); ROLLBACK;`,
  );
  const buildSeconds = (Date.now() - buildStarted) / 1000;

  const before = await measure('before');
  const indexOnly = await measure('new indexes, JIT as the server sets it');
  const after = await measure('after');
  const e2e = await endToEnd();
  const loadAfter = loadavg();

  const cell = (r) => `${r.median.toFixed(1)} (min ${r.min.toFixed(1)}) | ${r.buffers}`;
  const row = (b, i, a) => `| ${a.range} | ${a.name} | ${cell(b)} | ${cell(i)} | ${cell(a)} |`;
  const plans = (label, list, days) =>
    list
      .filter((r) => r.range.startsWith(days))
      .map((r) => `${label}, ${r.range}, ${r.name}:\n\n\`\`\`\n${r.plan}\n\`\`\`\n`)
      .join('\n');
  const year = e2e.find((r) => r.range.startsWith('366')).stats;
  const report = `
## Stats with 1 M submissions — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC

\`pnpm build && node bench/stats/run.mjs --submissions ${args.submissions} --others ${args.others} --runs ${runs}${args.out ? ` --out ${args.out}` : ''}\`
(scratch database; data by bench/stats/load.sql with generate_series, loaded in ${loadSeconds.toFixed(0)} s).
PostgreSQL: ${counts.version.split(' on ')[0]}, jit=${counts.jit}, shared_buffers=${counts.shared_buffers}, max_parallel_workers_per_gather=${counts.parallel}.
Load average before / after: ${loadBefore.map((l) => l.toFixed(1)).join(' ')} / ${loadAfter.map((l) => l.toFixed(1)).join(' ')} (2 cores, shared with other sessions).

| data | |
|---|---|
| submissions in the table / of the measured source | ${counts.submissions} / ${counts.measured} (365 days; 80 % accepted, 10 % duplicate, 10 % rejected) |
| leads / outcomes (activities) | ${counts.leads} / ${counts.outcomes} |
| submissions heap (all partitions) | ${counts.heap} in ${counts.partitions} partitions (monthly by id, and the two catch-alls) |
| indexes (after) | ${indexes.map((i) => `${i.name} ${i.size}`).join(', ')} |
| building one (source_id, created_at, result) index on this table | ${buildSeconds.toFixed(1)} s (the migration holds writes to submissions that long) |

Execution time (ms, median of ${runs} after a warm-up) and the top node's buffers, per query of
\`services/api/src/stats.queries.ts\`. "before": the indexes of 20261122190000 (submissions
(source_id, created_at)) and jit=${counts.jit} as the server sets it, i.e. what was served;
"indexes": 20261122203000_stats_indexes, jit still ${counts.jit}; "after": those indexes and
\`SET LOCAL jit = off\`, what is served now. All three run today's SQL.

| range | query | before ms | before buffers | indexes ms | indexes buffers | after ms | after buffers |
|---|---|---|---|---|---|---|---|
${after.map((a, i) => row(before[i], indexOnly[i], a)).join('\n')}

The whole answer (\`sourceStats()\`: the source check and the three queries in parallel, on a pool of 4),
after: ${e2e.map((r) => `${r.range}: ${r.median.toFixed(0)} ms median (min ${r.min.toFixed(0)})`).join('; ')}.
The year's answer: accepted ${year.accepted}, duplicate ${year.duplicate}, rejected ${year.rejected.total}
(${year.rejected.by_reason.length} reasons), outcomes ${Object.values(year.outcomes).reduce((a, b) => a + b, 0)}, ${year.by_day.length} days.

Plans of the 30-day range, the default and the case the indexes are for (the median run):

${plans('Before', before, '30')}
${plans('After', after, '30')}
Plans of the 366-day range (the median run):

${plans('Before', before, '366')}
${plans('After', after, '366')}
`;
  process.stdout.write(report);
  if (args.out) appendFileSync(resolve(root, args.out), report);
  exitCode = 0;
} finally {
  if (args.keep) console.error(`kept ${dbUrl}`);
  else await scratch.drop();
}
process.exit(exitCode);
