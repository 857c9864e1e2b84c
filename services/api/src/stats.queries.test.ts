import { Prisma } from '@leadhook/db';
import {
  outcomesByDaySql,
  outcomesBySourceSql,
  rejectionReasonsByDaySql,
  rejectionReasonsBySourceSql,
  type SourceSpan,
  STATS_JIT_OFF,
  submissionsByDaySql,
  submissionsBySourceSql,
} from './stats.queries.js';
import { resolveStatsRange, type StatsRange } from './stats.range.js';
import { type Harness, startHarness } from './testing/harness.js';
import type { LeadOwner } from './testing/leads.factory.js';
import { createOutcome, createStatsOwner, createSubmission } from './testing/stats.factory.js';

let h: Harness;
let source: LeadOwner;
/** The account's two sources, as a page of GET /stats/sources spans them. */
let span: SourceSpan;
let range: StatsRange;

const NOW = new Date('2026-11-23T12:00:00.000Z');
const DAY_MS = 86_400_000;

beforeAll(async () => {
  h = await startHarness();
  const owner = await createStatsOwner(h);
  source = owner.source;
  const others = [await owner.newSource(), (await createStatsOwner(h)).source];
  const ids = [source.sourceId, others[0]!.sourceId].sort();
  span = { accountId: source.accountId, low: ids[0]!, high: ids[1]! };
  // 40 days of the source, its account's other source and another account: the
  // default range is the last 30, so the indexes have rows to skip on every side.
  for (let i = 0; i < 40; i++) {
    const at = new Date(NOW.getTime() - i * DAY_MS).toISOString();
    for (const rowsOf of [source, ...others]) {
      await createSubmission(h.prisma, rowsOf, i % 5 === 0 ? 'duplicate' : 'accepted', at);
      if (i % 3 === 0) {
        const errors = [{ field: 'phone', code: 'invalid' }];
        await createSubmission(h.prisma, rowsOf, 'rejected', at, errors);
      }
      if (i % 4 === 0) await createOutcome(h.prisma, rowsOf, 'qualified', at);
    }
  }
  // Statistics and the visibility map as autovacuum keeps them on a live table:
  // without the map the planner cannot count on an index-only scan.
  await h.prisma.$executeRawUnsafe('VACUUM ANALYZE submissions, leads, activities');
  const resolved = resolveStatsRange({}, NOW);
  if (!resolved.ok) throw new Error('the default range did not resolve');
  range = resolved.range;
});
afterAll(async () => {
  await h.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
interface Scan {
  table: string;
  /** The index the table is read by (a bitmap scan's indexes joined by " & "), or null. */
  index: string | null;
  node: string;
  /** What the index is searched for: the range must be in it, not only the source. */
  cond: string | null;
}

/** Every table the plan reads, by table name, and how. */
function scans(node: PlanNode): Scan[] {
  const children = node.Plans ?? [];
  const table = node['Relation Name'];
  if (table === undefined) {
    return children.flatMap(scans).sort((a, b) => a.table.localeCompare(b.table));
  }
  const below = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(below)];
  const indexNodes =
    node['Node Type'] === 'Bitmap Heap Scan'
      ? children.flatMap(below).filter((n) => n['Index Name'] !== undefined)
      : node['Index Name'] === undefined
        ? []
        : [node];
  const joined = (key: 'Index Name' | 'Index Cond') =>
    indexNodes.map((n) => n[key] ?? '').join(' & ') || null;
  return [
    { table, index: joined('Index Name'), node: node['Node Type'], cond: joined('Index Cond') },
  ];
}

/**
 * The plan of `query` in a transaction like the service's, with sequential scans
 * priced out. On these few hundred rows a sequential scan is the planner's right
 * choice, so a plain EXPLAIN would say nothing about the indexes. With
 * enable_seqscan off the planner takes the cheapest plan without one, which is
 * the index whenever the index can serve the query: the test asks whether it
 * can, which is what dropping the index or reshaping the query (a condition the
 * index cannot search) breaks. The plans chosen with a million submissions are
 * bench/stats' (bench/RESULTS.md).
 */
async function scansOf(query: Prisma.Sql): Promise<Scan[]> {
  const [, , rows] = await h.prisma.$transaction([
    h.prisma.$executeRaw(STATS_JIT_OFF),
    h.prisma.$executeRaw`SET LOCAL enable_seqscan = off`,
    h.prisma.$queryRaw<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
      Prisma.sql`EXPLAIN (FORMAT JSON) ${query}`,
    ),
  ]);
  const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (!plan) throw new Error('EXPLAIN returned no plan');
  return byParent(scans(plan));
}

/**
 * The scans of a partitioned table's partitions (one per month,
 * docs/operations.md, "History partitions") as one scan of the table, by the parent's names of
 * the table and its index: each partition holding rows must be read the same
 * way. An empty partition (the months ahead, the catch-alls) is planned on
 * guesses, whatever it is read by costs nothing, and is left out.
 */
async function byParent(found: Scan[]): Promise<Scan[]> {
  const rows = await h.prisma.$queryRaw<{ child: string; parent: string; empty: boolean }[]>`
    SELECT c.relname::text AS child, p.relname::text AS parent,
           c.relkind = 'r' AND c.reltuples <= 0 AS empty
      FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent`;
  const parentOf = new Map(rows.map((r) => [r.child, r.parent]));
  const empty = new Set(rows.filter((r) => r.empty).map((r) => r.child));
  const name = (n: string) => parentOf.get(n) ?? n;
  const seen = new Set<string>();
  return found
    .filter((s) => !empty.has(s.table))
    .map((s) => ({
      ...s,
      table: name(s.table),
      index: s.index === null ? null : s.index.split(' & ').map(name).join(' & '),
    }))
    .filter((s) => {
      const key = JSON.stringify(s);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** An index searched by the source and both bounds of the range, not the source alone. */
const SOURCE_AND_RANGE =
  /\(source_id = .*\(created_at >= '[^']+'::timestamp with time zone\) AND \(created_at < /;

// The indexes the header comment of stats.queries.ts names for each query, from
// migration 20261122203000_stats_indexes and the schema's activities and leads.
describe('stats queries of the default range: the indexes they can run on', () => {
  it('by day and result: an index-only scan of submissions (source_id, created_at, result)', async () => {
    expect(await scansOf(submissionsByDaySql(source.sourceId, range))).toEqual([
      {
        table: 'submissions',
        index: 'submissions_source_id_created_at_result_idx',
        node: 'Index Only Scan',
        cond: expect.stringMatching(SOURCE_AND_RANGE),
      },
    ]);
  });

  it('rejection reasons: the partial index of the rejected rows', async () => {
    expect(await scansOf(rejectionReasonsByDaySql(source.sourceId, range))).toEqual([
      {
        table: 'submissions',
        index: 'submissions_rejected_source_id_created_at_idx',
        node: expect.any(String),
        cond: expect.stringMatching(SOURCE_AND_RANGE),
      },
    ]);
  });

  it("outcomes: the account's outcomes by the partial index, each checked in leads (source_id, id)", async () => {
    expect(await scansOf(outcomesByDaySql(source.accountId, source.sourceId, range))).toEqual([
      {
        table: 'activities',
        index: 'activities_outcome_occurred_idx',
        node: expect.any(String),
        cond: expect.stringMatching(
          /\(account_id = .*\(occurred_at >= '[^']+'::timestamp with time zone\) AND \(occurred_at < /,
        ),
      },
      expect.objectContaining({ table: 'leads', index: 'leads_source_id_id_idx' }),
    ]);
  });
});

describe('GET /stats/sources queries: the same indexes, for each source of the page', () => {
  it('by source and result: an index-only scan of submissions per source', async () => {
    expect(await scansOf(submissionsBySourceSql(span, range))).toEqual([
      expect.objectContaining({ table: 'marketing_sources' }),
      {
        table: 'submissions',
        index: 'submissions_source_id_created_at_result_idx',
        node: 'Index Only Scan',
        cond: expect.stringMatching(SOURCE_AND_RANGE),
      },
    ]);
  });

  it('rejection reasons by source: the partial index of the rejected rows', async () => {
    expect(await scansOf(rejectionReasonsBySourceSql(span, range))).toEqual([
      expect.objectContaining({ table: 'marketing_sources' }),
      {
        table: 'submissions',
        index: 'submissions_rejected_source_id_created_at_idx',
        node: expect.any(String),
        cond: expect.stringMatching(SOURCE_AND_RANGE),
      },
    ]);
  });

  // On these few rows the planner walks the page's sources' leads and finds each
  // lead's outcome by activities_one_outcome_per_lead; with many leads it takes
  // the account's outcomes in the range (activities_outcome_occurred_idx), as the
  // per-source query does. Either way, no table is read without an index.
  it('outcomes by source: every table read by an index', async () => {
    const read = await scansOf(outcomesBySourceSql(span, range));
    expect(read.map((scan) => scan.table).sort()).toEqual([
      'activities',
      'leads',
      'marketing_sources',
    ]);
    for (const scan of read)
      expect([scan.table, scan.index]).toEqual([scan.table, expect.any(String)]);
    expect(read.find((scan) => scan.table === 'activities')?.index).toMatch(
      /^(activities_outcome_occurred_idx|activities_one_outcome_per_lead)$/,
    );
  });
});
