import {
  OUTCOME_LABELS,
  type RejectionReason,
  SOURCE_STATUSES,
  SOURCE_TYPES,
  type SourceStats,
  type SourceStatsDay,
  type SourceStatsRow,
} from '@leadhook/contracts';
import type { Prisma, PrismaClient } from '@leadhook/db';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import {
  type DayOutcomeRow,
  type DayReasonRow,
  type DayResultRow,
  outcomesByDaySql,
  outcomesBySourceSql,
  rejectionReasonsByDaySql,
  rejectionReasonsBySourceSql,
  type SourceOutcomeRow,
  type SourceReasonRow,
  type SourceResultRow,
  STATS_JIT_OFF,
  submissionsByDaySql,
  submissionsBySourceSql,
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

/** One stats query, in its own transaction with JIT off (stats.queries.ts, STATS_JIT_OFF). */
async function read<Row>(prisma: PrismaClient, query: Prisma.Sql): Promise<Row[]> {
  const [, rows] = await prisma.$transaction([
    prisma.$executeRaw(STATS_JIT_OFF),
    prisma.$queryRaw<Row[]>(query),
  ]);
  return rows;
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
  const [submissionRows, reasonRows, outcomeRows] = await Promise.all([
    read<DayResultRow>(prisma, submissionsByDaySql(sourceId, range)),
    read<DayReasonRow>(prisma, rejectionReasonsByDaySql(sourceId, range)),
    read<DayOutcomeRow>(prisma, outcomesByDaySql(accountId, sourceId, range)),
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

/** The source columns a stats row shows. */
const sourceColumns = {
  id: true,
  name: true,
  sourceType: true,
  status: true,
  playbookId: true,
} as const;

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return values.some((v) => v === value);
}

/**
 * Every source of the account (not deleted), newest first, with its figures over
 * `range`, as sourceStats counts them without by_day
 * (docs/api.md, "Source performance"): a page of sources, then three grouped
 * reads for the whole page (stats.queries.ts, "per source"), never a read per
 * source. A source with no submission and no outcome in the range is listed
 * with zeros.
 */
export async function sourcesStats(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
  range: StatsRange,
): Promise<Page<SourceStatsRow>> {
  const sources = await prisma.marketingSource.findMany({
    ...keyset(page, { accountId, deletedAt: null }),
    select: sourceColumns,
  });
  const shown = sources.slice(0, page.limit);
  const rows = new Map<string, SourceStatsRow>();
  const reasons = new Map<string, Map<string, RejectionReason>>();
  for (const source of shown) {
    // The marketing_sources check constraints keep both within their enums.
    if (!isOneOf(SOURCE_TYPES, source.sourceType) || !isOneOf(SOURCE_STATUSES, source.status)) {
      throw new Error(`source ${source.id} has type ${source.sourceType}, status ${source.status}`);
    }
    rows.set(source.id, {
      id: source.id,
      name: source.name,
      source_type: source.sourceType,
      status: source.status,
      playbook_id: source.playbookId,
      accepted: 0,
      duplicate: 0,
      rejected: { total: 0, by_reason: [] },
      outcomes: noOutcomes(),
    });
  }
  const rowOf = (sourceId: string): SourceStatsRow => {
    const row = rows.get(sourceId);
    // The queries select the page's sources by the same bounds; a miss is a bug here.
    if (!row) throw new Error(`stats row for source ${sourceId} outside the page`);
    return row;
  };
  // Ids descending: the page's sources are the run of ids from the last to the first.
  const first = shown[0];
  const last = shown.at(-1);
  if (first && last) {
    const span = { accountId, low: last.id, high: first.id };
    const [submissionRows, reasonRows, outcomeRows] = await Promise.all([
      read<SourceResultRow>(prisma, submissionsBySourceSql(span, range)),
      read<SourceReasonRow>(prisma, rejectionReasonsBySourceSql(span, range)),
      read<SourceOutcomeRow>(prisma, outcomesBySourceSql(span, range)),
    ]);
    for (const { source_id, result, n } of submissionRows) {
      const row = rowOf(source_id);
      if (result === 'rejected') row.rejected.total += n;
      else if (result === 'accepted' || result === 'duplicate') row[result] += n;
      else throw new Error(`submission result ${result} is out of contract`);
    }
    for (const { source_id, field, code, n } of reasonRows) {
      rowOf(source_id);
      const ofSource = reasons.get(source_id) ?? new Map<string, RejectionReason>();
      reasons.set(source_id, ofSource);
      addReason(ofSource, field, code, n);
    }
    for (const { source_id, label, n } of outcomeRows) {
      const outcomes = rowOf(source_id).outcomes;
      outcomes[label] = (outcomes[label] ?? 0) + n;
    }
    for (const [sourceId, ofSource] of reasons) {
      rowOf(sourceId).rejected.by_reason = [...ofSource.values()].sort(byCountThenName);
    }
  }
  return pageOf(sources, page, (source) => rowOf(source.id));
}
