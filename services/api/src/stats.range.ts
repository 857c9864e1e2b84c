import type { SourceStatsQuery } from '@leadhook/contracts';
import type { ErrorDetail } from './validation.js';

/**
 * The range of `GET /marketing_sources/{id}/stats` (docs/api.md, "Source performance"), resolved from the
 * optional `from`/`to` into half-open instants and the UTC days they touch. Pure:
 * the route passes the clock.
 */

export const DAY_MS = 86_400_000;
/** The default range: the last 30 UTC days, the day of `to` included. */
export const DEFAULT_RANGE_DAYS = 30;
/** A leap year: a whole calendar year is always askable, and by_day stays bounded. */
export const MAX_RANGE_DAYS = 366;

export interface StatsRange {
  /** First instant counted. */
  from: Date;
  /** First instant no longer counted (`to` is inclusive; this is just after it). */
  until: Date;
  /** Every UTC day (`YYYY-MM-DD`) from the day of `from` to the day of `to`, in order. */
  days: string[];
}

export type StatsRangeResult =
  | { ok: true; range: StatsRange }
  | { ok: false; details: ErrorDetail[] };

const BOUND =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2})))?$/;

type Bound = { kind: 'date' | 'instant'; at: Date };

/**
 * Parsed by hand rather than with `new Date()`, which rolls 2026-02-30 over to
 * March 2 instead of refusing it. Fractions beyond the millisecond are dropped:
 * timestamps are stored with millisecond precision, so nothing lies between.
 */
function parseBound(value: string): Bound | null {
  const m = BOUND.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const dayStart = Date.UTC(year, month - 1, day);
  const check = new Date(dayStart);
  // Date.UTC maps years 0–99 to 1900–1999; such dates fail this check too.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  ) {
    return null;
  }
  if (h === undefined) return { kind: 'date', at: check };
  const hours = Number(h);
  const minutes = Number(mi);
  const seconds = Number(s ?? '0');
  const offsetHours = Number(oh ?? '0');
  const offsetMinutes = Number(om ?? '0');
  if (hours > 23 || minutes > 59 || seconds > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return null;
  }
  const millis = Number((frac ?? '').padEnd(3, '0').slice(0, 3));
  const offset =
    zulu !== undefined ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const at = dayStart + ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis - offset * 60_000;
  return { kind: 'instant', at: new Date(at) };
}

const startOfUtcDay = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function invalidBound(field: 'from' | 'to'): ErrorDetail {
  return {
    field,
    code: 'invalid',
    message: `${field} must be a real date (YYYY-MM-DD) or an ISO 8601 date-time with its offset.`,
  };
}

/** The instant just after an inclusive `to`: a date includes its whole UTC day, a date-time that millisecond. */
const untilOf = (to: Bound) =>
  to.kind === 'date' ? to.at.getTime() + DAY_MS : to.at.getTime() + 1;

const fromAfterTo: ErrorDetail = {
  field: 'from',
  code: 'invalid',
  message: 'from must not be after to.',
};

export type PeriodResult =
  | { ok: true; from: Date | undefined; until: Date | undefined }
  | { ok: false; details: ErrorDetail[] };

/**
 * An optional period with the stats' bounds (docs/api.md, "Leads"): the same
 * shapes and inclusive ends as resolveStatsRange, but no default and no ceiling:
 * a bound not given leaves that side open.
 */
export function resolvePeriod(query: { from?: string; to?: string }): PeriodResult {
  const from = query.from === undefined ? undefined : parseBound(query.from);
  const to = query.to === undefined ? undefined : parseBound(query.to);
  const details: ErrorDetail[] = [];
  if (from === null) details.push(invalidBound('from'));
  if (to === null) details.push(invalidBound('to'));
  if (from === null || to === null) return { ok: false, details };
  const until = to === undefined ? undefined : untilOf(to);
  if (from !== undefined && until !== undefined && from.at.getTime() >= until) {
    return { ok: false, details: [fromAfterTo] };
  }
  return {
    ok: true,
    from: from?.at,
    until: until === undefined ? undefined : new Date(until),
  };
}

/**
 * `from` and `to` as instants: a date `from` starts at 00:00 UTC, a date `to`
 * includes its whole UTC day, a date-time `to` includes that very millisecond.
 * Without `to`, the range ends with today (UTC); without `from`, it starts 29 days
 * before the day of `to`, so the default is 30 whole days.
 */
export function resolveStatsRange(query: SourceStatsQuery, now: Date): StatsRangeResult {
  const from = query.from === undefined ? undefined : parseBound(query.from);
  const to = query.to === undefined ? undefined : parseBound(query.to);
  const details: ErrorDetail[] = [];
  if (from === null) details.push(invalidBound('from'));
  if (to === null) details.push(invalidBound('to'));
  if (from === null || to === null) return { ok: false, details };

  const until = to === undefined ? startOfUtcDay(now.getTime()) + DAY_MS : untilOf(to);
  const lastDay = startOfUtcDay(until - 1);
  const start = from?.at.getTime() ?? lastDay - (DEFAULT_RANGE_DAYS - 1) * DAY_MS;

  if (start >= until) {
    return { ok: false, details: [fromAfterTo] };
  }
  if (until - start > MAX_RANGE_DAYS * DAY_MS) {
    return {
      ok: false,
      details: [
        {
          field: 'from',
          code: 'too_long',
          message: `The range is over ${MAX_RANGE_DAYS} days; ask for at most ${MAX_RANGE_DAYS} days at a time.`,
        },
      ],
    };
  }
  const days: string[] = [];
  for (let day = startOfUtcDay(start); day <= lastDay; day += DAY_MS) days.push(isoDay(day));
  return { ok: true, range: { from: new Date(start), until: new Date(until), days } };
}
