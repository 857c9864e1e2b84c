import {
  OUTCOME_LABELS,
  type RejectionReason,
  type SourceStats,
  type SourceStatsDay,
} from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import type { StatsRange } from './stats.range.js';

export type SourceStatsResult = { kind: 'ok'; stats: SourceStats } | { kind: 'not_found' };

interface DayResultRow {
  day: string;
  result: string;
  n: number;
}
interface DayOutcomeRow {
  day: string;
  label: string;
  n: number;
}
interface ReasonRow {
  field: string;
  code: string;
  n: number;
}

/*
 * Why this stays fast: the two submission queries filter on
 * `source_id = $1 AND created_at >= $2 AND created_at < $3`, an index range scan on
 * submissions (source_id, created_at) that reads only the rows of this source in
 * the range (at most 366 days of them), never the account's or the table's other
 * rows; GROUP BY (day, result) then folds them into at most 367 × 3 rows, so no
 * per-row data crosses the wire. The reasons' jsonb is unnested only for the
 * rejected rows that scan found.
 *
 * Outcomes are the weak spot: no index reaches activities by time, so today the
 * planner hash-joins the source's leads (leads (source_id, id)) with a scan of
 * activities. It wants a partial index, not added here:
 *   CREATE INDEX activities_outcome_occurred_idx ON activities (account_id, occurred_at)
 *     INCLUDE (lead_id, activity_label) WHERE activity_type = 'outcome';
 * The `a.account_id` condition is there for it: with it the query is two
 * index-only scans (the account's outcomes in the range, the source's lead ids).
 *
 * Bounds are sent as ISO strings cast to timestamptz, so the session TimeZone
 * cannot shift them; days are cut in UTC for the same reason.
 */

async function submissionsByDay(prisma: PrismaClient, sourceId: string, range: StatsRange) {
  return prisma.$queryRaw<DayResultRow[]>`
    SELECT to_char(g.d, 'YYYY-MM-DD') AS day, g.result, g.n
    FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS d, result, count(*)::int AS n
      FROM submissions
      WHERE source_id = ${sourceId}
        AND created_at >= ${range.from.toISOString()}::timestamptz
        AND created_at < ${range.until.toISOString()}::timestamptz
      GROUP BY 1, 2
    ) g`;
}

/**
 * A rejected submission counts once per distinct (field, code) it carries.
 * COLLATE "C" makes the tie order bytewise, whatever the database's locale.
 */
async function rejectionReasons(prisma: PrismaClient, sourceId: string, range: StatsRange) {
  return prisma.$queryRaw<ReasonRow[]>`
    SELECT r.field, r.code, count(*)::int AS n
    FROM submissions s
    CROSS JOIN LATERAL (
      SELECT DISTINCT coalesce(e ->> 'field', '') AS field, coalesce(e ->> 'code', '') AS code
      FROM jsonb_array_elements(
        CASE jsonb_typeof(s.errors) WHEN 'array' THEN s.errors ELSE '[]'::jsonb END
      ) AS e
    ) r
    WHERE s.source_id = ${sourceId}
      AND s.created_at >= ${range.from.toISOString()}::timestamptz
      AND s.created_at < ${range.until.toISOString()}::timestamptz
      AND s.result = 'rejected'
    GROUP BY r.field, r.code
    ORDER BY n DESC, r.field COLLATE "C", r.code COLLATE "C"`;
}

/** A lead has at most one outcome (a unique partial index), so this counts leads. */
async function outcomesByDay(
  prisma: PrismaClient,
  accountId: string,
  sourceId: string,
  range: StatsRange,
) {
  return prisma.$queryRaw<DayOutcomeRow[]>`
    SELECT to_char(g.d, 'YYYY-MM-DD') AS day, g.label, g.n
    FROM (
      SELECT (a.occurred_at AT TIME ZONE 'UTC')::date AS d, a.activity_label AS label,
             count(*)::int AS n
      FROM leads l
      JOIN activities a ON a.lead_id = l.id
      WHERE l.source_id = ${sourceId}
        AND a.account_id = ${accountId}
        AND a.activity_type = 'outcome'
        AND a.occurred_at >= ${range.from.toISOString()}::timestamptz
        AND a.occurred_at < ${range.until.toISOString()}::timestamptz
      GROUP BY 1, 2
    ) g`;
}

/**
 * The source's performance over `range`: every count comes from three grouped
 * queries. Another account's or a deleted source is not_found.
 */
export async function sourceStats(
  prisma: PrismaClient,
  accountId: string,
  sourceId: string,
  range: StatsRange,
): Promise<SourceStatsResult> {
  const source = await prisma.marketingSource.findFirst({
    where: { id: sourceId, accountId, deletedAt: null },
    select: { id: true },
  });
  if (!source) return { kind: 'not_found' };

  // Three reads on separate connections: a stats answer need not be one snapshot.
  const [submissionRows, reasonRows, outcomeRows] = await Promise.all([
    submissionsByDay(prisma, sourceId, range),
    rejectionReasons(prisma, sourceId, range),
    outcomesByDay(prisma, accountId, sourceId, range),
  ]);

  const byDay = new Map<string, SourceStatsDay>(
    range.days.map((date) => [date, { date, accepted: 0, duplicate: 0, rejected: 0, outcomes: 0 }]),
  );
  const dayOf = (date: string): SourceStatsDay => {
    const day = byDay.get(date);
    // The days and the queries come from the same bounds; a miss is a bug here.
    if (!day) throw new Error(`stats row for ${date} outside the range's days`);
    return day;
  };

  const totals = { accepted: 0, duplicate: 0, rejected: 0 };
  for (const row of submissionRows) {
    // The submissions_result_check constraint keeps result within these three.
    if (row.result !== 'accepted' && row.result !== 'duplicate' && row.result !== 'rejected') {
      throw new Error(`submission result ${row.result} is out of contract`);
    }
    totals[row.result] += row.n;
    dayOf(row.day)[row.result] += row.n;
  }

  // Every catalog label, 0 when none: a dashboard reads a fixed set of keys.
  const outcomes: Record<string, number> = Object.fromEntries(
    OUTCOME_LABELS.map((label) => [label, 0]),
  );
  for (const row of outcomeRows) {
    outcomes[row.label] = (outcomes[row.label] ?? 0) + row.n;
    dayOf(row.day).outcomes += row.n;
  }

  const byReason: RejectionReason[] = reasonRows.map(({ field, code, n }) => ({
    field,
    code,
    count: n,
  }));

  return {
    kind: 'ok',
    stats: {
      accepted: totals.accepted,
      duplicate: totals.duplicate,
      rejected: { total: totals.rejected, by_reason: byReason },
      outcomes,
      by_day: [...byDay.values()],
    },
  };
}
