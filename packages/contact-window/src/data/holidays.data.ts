/**
 * The holiday calendar used by the rows with `noContactOnHolidays` (AL, LA, MS, RI,
 * UT): the eleven US federal holidays of 5 U.S.C. 6103(a).
 *
 * State-specific holidays (e.g. Alabama's Confederate Memorial Day, Louisiana's
 * Mardi Gras, Rhode Island's Victory Day) are NOT yet included: the statutes say
 * "state" or "legal" holidays, so this calendar is a floor, not the full list.
 *
 * A fixed-date holiday on a Saturday is observed the Friday before, on a Sunday the
 * Monday after (5 U.S.C. 6103(b); OPM). Both the date itself and the observed date
 * are treated as holidays: the stricter reading, since sources do not say which
 * one a state means.
 */

export type HolidayRule =
  | { readonly kind: 'fixed'; readonly month: number; readonly day: number }
  /** nth (1-based) weekday of the month, or the last one when nth is -1; weekday 1 = Monday. */
  | {
      readonly kind: 'nth-weekday';
      readonly month: number;
      readonly weekday: number;
      readonly nth: number;
    };

export interface HolidayDefinition {
  readonly name: string;
  readonly rule: HolidayRule;
}

export const HOLIDAY_CALENDAR = {
  name: 'US federal holidays',
  sources: ['5 U.S.C. 6103', 'opm.gov federal holidays'],
  checked: '2026-11-22',
  notes: 'State-specific holidays are not yet included.',
  holidays: [
    { name: "New Year's Day", rule: { kind: 'fixed', month: 1, day: 1 } },
    {
      name: 'Birthday of Martin Luther King, Jr.',
      rule: { kind: 'nth-weekday', month: 1, weekday: 1, nth: 3 },
    },
    { name: "Washington's Birthday", rule: { kind: 'nth-weekday', month: 2, weekday: 1, nth: 3 } },
    { name: 'Memorial Day', rule: { kind: 'nth-weekday', month: 5, weekday: 1, nth: -1 } },
    { name: 'Juneteenth National Independence Day', rule: { kind: 'fixed', month: 6, day: 19 } },
    { name: 'Independence Day', rule: { kind: 'fixed', month: 7, day: 4 } },
    { name: 'Labor Day', rule: { kind: 'nth-weekday', month: 9, weekday: 1, nth: 1 } },
    { name: 'Columbus Day', rule: { kind: 'nth-weekday', month: 10, weekday: 1, nth: 2 } },
    { name: 'Veterans Day', rule: { kind: 'fixed', month: 11, day: 11 } },
    { name: 'Thanksgiving Day', rule: { kind: 'nth-weekday', month: 11, weekday: 4, nth: 4 } },
    { name: 'Christmas Day', rule: { kind: 'fixed', month: 12, day: 25 } },
  ] satisfies readonly HolidayDefinition[],
} as const;
