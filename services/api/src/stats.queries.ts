import { Prisma } from '@leadhook/db';
import type { StatsRange } from './stats.range.js';

/**
 * The three grouped reads of `GET /marketing_sources/{id}/stats`, as SQL values:
 * stats.service.ts runs them, and bench/stats runs these very statements under
 * EXPLAIN (ANALYZE, BUFFERS) on a million submissions (bench/RESULTS.md, "Stats
 * with 1 M submissions"), so the plans measured are the plans served.
 *
 * Why they stay fast (the indexes of migration 20261122203000_stats_indexes):
 * - by day and result: an index-only scan of submissions (source_id, created_at,
 *   result) over the source's rows in the range, never the account's or the
 *   table's other rows; GROUP BY folds them to at most 367 × 3 rows.
 * - rejection reasons: the partial index submissions (source_id, created_at)
 *   WHERE result = 'rejected' reaches only the rejected rows (their jsonb is read
 *   from the heap: errors can outgrow an index tuple, so it is not included).
 * - outcomes: the account's outcomes in the range by the partial index
 *   activities (account_id, occurred_at) WHERE activity_type = 'outcome', each
 *   checked against the source's leads (leads (source_id, id)). The
 *   `a.account_id` condition is there for that index.
 * These are the plans of the default 30 days (bench/RESULTS.md, "plans of the
 * default range"); stats.queries.test.ts fails if a query can no longer use its
 * index. When the range holds most of the source's rows (a year of a source that
 * is most of the table) the planner rightly reads everything instead: a sequential
 * scan of submissions by day and result, and the outcomes as one join of the
 * year's outcomes with the leads (a parallel hash join on a year of partitions).
 *
 * submissions and activities are partitioned by month (docs/operations.md,
 * "History partitions"): each query searches its index in every month kept, and a
 * month with none of the range's rows costs about three pages (bench/RESULTS.md,
 * "Stats with a year of partitions"). The range is not also given as ids to skip
 * those months: it would save little, and would count a row by when its id was made.
 *
 * Bounds are sent as ISO strings cast to timestamptz, so the session TimeZone
 * cannot shift them; days are cut in UTC for the same reason.
 */

/**
 * Run before each query, in its transaction. The row estimate of
 * jsonb_array_elements (100 per row) made a year of rejections look like ten
 * million rows, past PostgreSQL's JIT inlining and optimization thresholds: JIT
 * compilation then cost more than the query itself (bench/RESULTS.md, "JIT was
 * the largest single cost"). These aggregates never gain from JIT.
 */
export const STATS_JIT_OFF: Prisma.Sql = Prisma.sql`SET LOCAL jit = off`;

export interface DayResultRow {
  day: string;
  result: string;
  n: number;
}
export interface DayReasonRow {
  day: string;
  field: string;
  code: string;
  n: number;
}
export interface DayOutcomeRow {
  day: string;
  label: string;
  n: number;
}

const bounds = (range: StatsRange) => [range.from.toISOString(), range.until.toISOString()];

/** Submissions of the source per UTC day and result. */
export function submissionsByDaySql(sourceId: string, range: StatsRange): Prisma.Sql {
  const [from, until] = bounds(range);
  return Prisma.sql`
    SELECT to_char(g.d, 'YYYY-MM-DD') AS day, g.result, g.n
    FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS d, result, count(*)::int AS n
      FROM submissions
      WHERE source_id = ${sourceId}
        AND created_at >= ${from}::timestamptz
        AND created_at < ${until}::timestamptz
      GROUP BY 1, 2
    ) g`;
}

/**
 * Rejected submissions per UTC day and (field, code): one count per distinct
 * reason of a submission. The rows are first grouped by (day, errors): sellers
 * repeat the same mistakes, so the jsonb is unnested once per distinct list and
 * day rather than once per submission, and the rows sorted or hashed afterwards
 * are those few groups, not every rejected submission with its jsonb.
 */
export function rejectionReasonsByDaySql(sourceId: string, range: StatsRange): Prisma.Sql {
  const [from, until] = bounds(range);
  return Prisma.sql`
    SELECT to_char(g.d, 'YYYY-MM-DD') AS day, r.field, r.code, sum(g.n)::int AS n
    FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS d, errors, count(*) AS n
      FROM submissions
      WHERE source_id = ${sourceId}
        AND created_at >= ${from}::timestamptz
        AND created_at < ${until}::timestamptz
        AND result = 'rejected'
      GROUP BY 1, 2
    ) g
    CROSS JOIN LATERAL (
      SELECT DISTINCT coalesce(e ->> 'field', '') AS field, coalesce(e ->> 'code', '') AS code
      FROM jsonb_array_elements(
        CASE jsonb_typeof(g.errors) WHEN 'array' THEN g.errors ELSE '[]'::jsonb END
      ) AS e
    ) r
    GROUP BY g.d, r.field, r.code`;
}

/** Outcomes of the source's leads per UTC day and label (at most one per lead: a unique partial index). */
export function outcomesByDaySql(
  accountId: string,
  sourceId: string,
  range: StatsRange,
): Prisma.Sql {
  const [from, until] = bounds(range);
  return Prisma.sql`
    SELECT to_char(g.d, 'YYYY-MM-DD') AS day, g.label, g.n
    FROM (
      SELECT (a.occurred_at AT TIME ZONE 'UTC')::date AS d, a.activity_label AS label,
             count(*)::int AS n
      FROM activities a
      JOIN leads l ON l.id = a.lead_id
      WHERE l.source_id = ${sourceId}
        AND a.account_id = ${accountId}
        AND a.activity_type = 'outcome'
        AND a.occurred_at >= ${from}::timestamptz
        AND a.occurred_at < ${until}::timestamptz
      GROUP BY 1, 2
    ) g`;
}

/**
 * The sources of `GET /stats/sources` one answer covers: the account's sources
 * (not deleted) with ids from `low` to `high`, both included. A page of that list
 * is such a run of ids (it is ordered by id), so the three reads below select
 * their sources by a range rather than by a list of up to 1,000 ids.
 */
export interface SourceSpan {
  accountId: string;
  low: string;
  high: string;
}

export interface SourceResultRow {
  source_id: string;
  result: string;
  n: number;
}
export interface SourceReasonRow {
  source_id: string;
  field: string;
  code: string;
  n: number;
}
export interface SourceOutcomeRow {
  source_id: string;
  label: string;
  n: number;
}

const spanSources = (span: SourceSpan) => Prisma.sql`
  s.account_id = ${span.accountId}
  AND s.deleted_at IS NULL
  AND s.id >= ${span.low}
  AND s.id <= ${span.high}`;

/**
 * Submissions per source and result: for each source, the same index-only scan
 * of submissions (source_id, created_at, result) as submissionsByDaySql.
 */
export function submissionsBySourceSql(span: SourceSpan, range: StatsRange): Prisma.Sql {
  const [from, until] = bounds(range);
  return Prisma.sql`
    SELECT sub.source_id, sub.result, count(*)::int AS n
    FROM marketing_sources s
    JOIN submissions sub ON sub.source_id = s.id
    WHERE ${spanSources(span)}
      AND sub.created_at >= ${from}::timestamptz
      AND sub.created_at < ${until}::timestamptz
    GROUP BY 1, 2`;
}

/** Rejected submissions per source and (field, code), as rejectionReasonsByDaySql counts them per day. */
export function rejectionReasonsBySourceSql(span: SourceSpan, range: StatsRange): Prisma.Sql {
  const [from, until] = bounds(range);
  return Prisma.sql`
    SELECT g.source_id, r.field, r.code, sum(g.n)::int AS n
    FROM (
      SELECT sub.source_id, sub.errors, count(*) AS n
      FROM marketing_sources s
      JOIN submissions sub ON sub.source_id = s.id
      WHERE ${spanSources(span)}
        AND sub.created_at >= ${from}::timestamptz
        AND sub.created_at < ${until}::timestamptz
        AND sub.result = 'rejected'
      GROUP BY 1, 2
    ) g
    CROSS JOIN LATERAL (
      SELECT DISTINCT coalesce(e ->> 'field', '') AS field, coalesce(e ->> 'code', '') AS code
      FROM jsonb_array_elements(
        CASE jsonb_typeof(g.errors) WHEN 'array' THEN g.errors ELSE '[]'::jsonb END
      ) AS e
    ) r
    GROUP BY g.source_id, r.field, r.code`;
}

/**
 * Outcomes per source and label. The planner picks by the rows: the account's
 * outcomes in the range (the partial index activities_outcome_occurred_idx), each
 * lead's source joined, or, when the page's sources have few leads, their leads
 * (leads (source_id, id)) and each one's outcome (activities_one_outcome_per_lead).
 */
export function outcomesBySourceSql(span: SourceSpan, range: StatsRange): Prisma.Sql {
  const [from, until] = bounds(range);
  return Prisma.sql`
    SELECT l.source_id, a.activity_label AS label, count(*)::int AS n
    FROM activities a
    JOIN leads l ON l.id = a.lead_id
    JOIN marketing_sources s ON s.id = l.source_id
    WHERE ${spanSources(span)}
      AND a.account_id = ${span.accountId}
      AND a.activity_type = 'outcome'
      AND a.occurred_at >= ${from}::timestamptz
      AND a.occurred_at < ${until}::timestamptz
    GROUP BY 1, 2`;
}
