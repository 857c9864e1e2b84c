import { HOLIDAY_CALENDAR, type HolidayRule } from './data/holidays.data.js';

/** A calendar date (no time, no zone). */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export interface Holiday extends CalendarDate {
  readonly name: string;
  /** True for the weekday a weekend holiday is observed on. */
  readonly observed: boolean;
}

const DAY_MS = 86_400_000;

/** ISO weekday, 1 = Monday … 7 = Sunday. */
function weekdayOf(year: number, month: number, day: number): number {
  return ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;
}

function dateAt(ms: number): CalendarDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function resolve(year: number, rule: HolidayRule): CalendarDate {
  if (rule.kind === 'fixed') return { year, month: rule.month, day: rule.day };
  if (rule.nth > 0) {
    const first = weekdayOf(year, rule.month, 1);
    const day = 1 + ((rule.weekday - first + 7) % 7) + (rule.nth - 1) * 7;
    return { year, month: rule.month, day };
  }
  const lastDay = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
  const last = weekdayOf(year, rule.month, lastDay);
  return { year, month: rule.month, day: lastDay - ((last - rule.weekday + 7) % 7) };
}

const cache = new Map<number, readonly Holiday[]>();

/**
 * The holidays of a calendar year: each holiday's own date plus, for a fixed date
 * falling on a weekend, its observed weekday (which for New Year's Day on a
 * Saturday is December 31 of the year before, and so is listed under that year).
 */
export function holidaysOf(year: number): readonly Holiday[] {
  const cached = cache.get(year);
  if (cached) return cached;
  const list: Holiday[] = [];
  for (const y of [year, year + 1]) {
    for (const { name, rule } of HOLIDAY_CALENDAR.holidays) {
      const date = resolve(y, rule);
      if (y === year) list.push({ ...date, name, observed: false });
      if (rule.kind !== 'fixed') continue;
      const weekday = weekdayOf(date.year, date.month, date.day);
      const shift = weekday === 6 ? -1 : weekday === 7 ? 1 : 0;
      if (shift === 0) continue;
      const observed = dateAt(Date.UTC(date.year, date.month - 1, date.day) + shift * DAY_MS);
      if (observed.year === year) list.push({ ...observed, name, observed: true });
    }
  }
  list.sort((a, b) => a.month - b.month || a.day - b.day);
  const frozen = Object.freeze(list);
  cache.set(year, frozen);
  return frozen;
}

/** The holiday on a date, if any. */
export function holidayOn(date: CalendarDate): Holiday | undefined {
  return holidaysOf(date.year).find((h) => h.month === date.month && h.day === date.day);
}
