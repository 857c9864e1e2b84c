import {
  OUTCOME_LABELS,
  type RejectionReason,
  type SourceStats,
  type SourceStatsDay,
} from '@leadhook/contracts';
import type { Prisma, PrismaClient } from '@leadhook/db';
import {
  type DayOutcomeRow,
  type DayReasonRow,
  type DayResultRow,
  outcomesByDaySql,
  rejectionReasonsByDaySql,
  STATS_JIT_OFF,
  submissionsByDaySql,
} from './stats.queries.js';
import type { StatsRange } from './stats.range.js';

export type SourceStatsResult = { kind: 'ok'; stats: SourceStats } | { kind: 'not_found' };

/** Every catalog label, 0 when none: a dashboard reads a fixed set of keys. */
const noOutcomes = (): Record<string, number> =>
  Object.fromEntries(OUTCOME_LABELS.map((label) => [label, 0]));

const emptyDay = (date: string): SourceStatsDay => ({
  date,
  accepted: 0,
  duplicate: 0,
  rejected: { total: 0, by_reason: [] },
  outcomes: noOutcomes(),
});

/**
 * Count descending, then field and code bytewise (as PostgreSQL's COLLATE "C"):
 * the same order whatever the locale. Extra fields' names are the seller's text,
 * so UTF-16 order would not do.
 */
function byCountThenName(a: RejectionReason, b: RejectionReason): number {
  return (
    b.count - a.count ||
    Buffer.compare(Buffer.from(a.field), Buffer.from(b.field)) ||
    Buffer.compare(Buffer.from(a.code), Buffer.from(b.code))
  );
}

/** Adds `n` to the (field, code) entry of a reason list kept in a map by key. */
function addReason(reasons: Map<string, RejectionReason>, field: string, code: string, n: number) {
  const key = JSON.stringify([field, code]);
  const reason = reasons.get(key);
  if (reason) reason.count += n;
  else reasons.set(key, { field, code, count: n });
}

/**
 * The source's performance over `range`, in total and per UTC day: every count
 * comes from three grouped queries (stats.queries.ts). Another account's or a
 * deleted source is not_found.
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
  const read = async <Row>(query: Prisma.Sql): Promise<Row[]> => {
    const [, rows] = await prisma.$transaction([
      prisma.$executeRaw(STATS_JIT_OFF),
      prisma.$queryRaw<Row[]>(query),
    ]);
    return rows;
  };
  const [submissionRows, reasonRows, outcomeRows] = await Promise.all([
    read<DayResultRow>(submissionsByDaySql(sourceId, range)),
    read<DayReasonRow>(rejectionReasonsByDaySql(sourceId, range)),
    read<DayOutcomeRow>(outcomesByDaySql(accountId, sourceId, range)),
  ]);

  const byDay = new Map(range.days.map((date) => [date, emptyDay(date)]));
  const dayOf = (date: string): SourceStatsDay => {
    const day = byDay.get(date);
    // The days and the queries come from the same bounds; a miss is a bug here.
    if (!day) throw new Error(`stats row for ${date} outside the range's days`);
    return day;
  };

  const totals = { accepted: 0, duplicate: 0, rejected: 0 };
  for (const row of submissionRows) {
    // The submissions_result_check constraint keeps result within these three.
    if (row.result === 'rejected') {
      totals.rejected += row.n;
      dayOf(row.day).rejected.total += row.n;
    } else if (row.result === 'accepted' || row.result === 'duplicate') {
      totals[row.result] += row.n;
      dayOf(row.day)[row.result] += row.n;
    } else {
      throw new Error(`submission result ${row.result} is out of contract`);
    }
  }

  // A submission lies in one day, so a reason's total is the sum of its days.
  const reasons = new Map<string, RejectionReason>();
  const dayReasons = new Map<string, Map<string, RejectionReason>>();
  for (const { day, field, code, n } of reasonRows) {
    addReason(reasons, field, code, n);
    const ofDay = dayReasons.get(day) ?? new Map<string, RejectionReason>();
    dayReasons.set(day, ofDay);
    addReason(ofDay, field, code, n);
  }
  for (const [day, ofDay] of dayReasons) {
    dayOf(day).rejected.by_reason = [...ofDay.values()].sort(byCountThenName);
  }

  const outcomes = noOutcomes();
  for (const { day, label, n } of outcomeRows) {
    outcomes[label] = (outcomes[label] ?? 0) + n;
    const ofDay = dayOf(day).outcomes;
    ofDay[label] = (ofDay[label] ?? 0) + n;
  }

  return {
    kind: 'ok',
    stats: {
      accepted: totals.accepted,
      duplicate: totals.duplicate,
      rejected: { total: totals.rejected, by_reason: [...reasons.values()].sort(byCountThenName) },
      outcomes,
      by_day: [...byDay.values()],
    },
  };
}
