/**
 * State contact-hour rules, one row per state, each with the sources it was read from.
 *
 * Data, not logic: an operator corrects a row here (with its sources and the date
 * checked) without touching the code. None of this is legal advice; where vendor
 * summaries disagree the row takes the STRICTER reading and names both sources.
 *
 * A row only NARROWS the configured CONTACT_HOURS (the two windows intersect); it
 * never widens it. Times are the lead's local wall-clock time, "HH:MM-HH:MM" with
 * 24:00 allowed as the end; `null` means no contact at all that weekday.
 */

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface StateRule {
  /** USPS code, upper case. */
  readonly state: string;
  readonly windows: Readonly<Record<Weekday, string | null>>;
  /** No contact on the holidays of holidays.data.ts (in the lead's local date). */
  readonly noContactOnHolidays: boolean;
  /**
   * At most this many attempts (SMS or call) in any 24 hours; the next waits until
   * the oldest attempt in the last 24 hours is 24 hours old. null: no cap.
   */
  readonly maxAttemptsPer24h: number | null;
  /** An area code of this state presumes a resident of it (the rule applies too). */
  readonly areaCodePresumesResident: boolean;
  readonly notes: string;
  readonly sources: readonly string[];
  readonly checked: string;
}

const CHECKED = '2026-11-22';

function everyDay(window: string): Record<Weekday, string> {
  return {
    mon: window,
    tue: window,
    wed: window,
    thu: window,
    fri: window,
    sat: window,
    sun: window,
  };
}

interface RowInput {
  readonly windows: Readonly<Record<Weekday, string | null>>;
  readonly noContactOnHolidays?: boolean;
  readonly maxAttemptsPer24h?: number;
  readonly areaCodePresumesResident?: boolean;
  readonly notes?: string;
  readonly sources: readonly string[];
}

function row(state: string, input: RowInput): StateRule {
  return {
    state,
    windows: input.windows,
    noContactOnHolidays: input.noContactOnHolidays ?? false,
    maxAttemptsPer24h: input.maxAttemptsPer24h ?? null,
    areaCodePresumesResident: input.areaCodePresumesResident ?? false,
    notes: input.notes ?? '',
    sources: input.sources,
    checked: CHECKED,
  };
}

const ROWS: readonly StateRule[] = [
  row('FL', {
    windows: everyDay('08:00-20:00'),
    maxAttemptsPer24h: 3,
    notes:
      '≤ 3 calls per 24 h on the same subject (Fla. Stat. 501.616(6)); every attempt of a ' +
      'playbook is on the same subject, and SMS count (stricter reading).',
    sources: ['Fla. Stat. 501.616', 'dnc.com', 'ClickPoint'],
  }),
  row('OK', {
    windows: everyDay('08:00-20:00'),
    maxAttemptsPer24h: 3,
    areaCodePresumesResident: true,
    notes:
      '≤ 3 per 24 h (Okla. Stat. tit. 15 §775C.4); an Oklahoma area code is presumed to ' +
      'reach an Oklahoma resident, so the rule applies by area code too.',
    sources: ['Okla. Stat. tit. 15 §775C.4', 'dnc.com', 'Ropes & Gray'],
  }),
  row('MD', {
    windows: everyDay('08:00-20:00'),
    maxAttemptsPer24h: 3,
    notes: '≤ 3 calls or texts per 24 h (Stop the Spam Calls Act, 2024).',
    sources: ['Maryland Stop the Spam Calls Act (2024)', 'Kelley Drye'],
  }),
  row('WA', {
    windows: everyDay('08:00-20:00'),
    sources: ['RCW 19.158.040(2)', 'leg.wa.gov'],
  }),
  row('TX', {
    windows: { ...everyDay('09:00-21:00'), sun: '12:00-21:00' },
    notes:
      'Texts count as calls (SB 140). One vendor says 09:00-21:00 every day; the Sunday ' +
      'noon start is the stricter reading.',
    sources: ['Texas SB 140', 'two vendor summaries'],
  }),
  row('AL', {
    windows: { ...everyDay('08:00-20:00'), sun: null },
    noContactOnHolidays: true,
    notes: 'No Sundays or state holidays.',
    sources: ['Drop Cowboy', 'ClickPoint'],
  }),
  row('LA', {
    windows: { ...everyDay('08:00-20:00'), sun: null },
    noContactOnHolidays: true,
    notes: 'Mon-Sat only; no Sundays or legal holidays.',
    sources: ['dnc.com'],
  }),
  row('MS', {
    windows: { ...everyDay('08:00-20:00'), sun: null },
    noContactOnHolidays: true,
    notes:
      'No Sundays. Holidays disputed (Drop Cowboy vs dnc.com): the stricter reading, no ' +
      'contact on holidays.',
    sources: ['Drop Cowboy', 'dnc.com'],
  }),
  row('PA', {
    windows: { ...everyDay('09:00-21:00'), sun: '13:30-21:00' },
    sources: ['LiveVox'],
  }),
  row('RI', {
    windows: { ...everyDay('09:00-18:00'), sat: '10:00-17:00', sun: null },
    noContactOnHolidays: true,
    notes: 'Mon-Fri 09:00-18:00, Sat 10:00-17:00; no Sundays or holidays.',
    sources: ['Drop Cowboy', 'dnc.com'],
  }),
  row('NV', {
    windows: everyDay('09:00-20:00'),
    sources: ['Drop Cowboy', 'LiveVox'],
  }),
  row('CT', {
    windows: everyDay('09:00-20:00'),
    notes: 'ClickPoint says 09:00-21:00; Drop Cowboy says 20:00 (the stricter, taken).',
    sources: ['Drop Cowboy', 'ClickPoint'],
  }),
  row('KY', {
    windows: everyDay('10:00-21:00'),
    sources: ['Drop Cowboy'],
  }),
  row('MA', {
    windows: everyDay('08:00-20:00'),
    sources: ['Drop Cowboy'],
  }),
  row('MI', {
    windows: everyDay('09:00-21:00'),
    sources: ['Drop Cowboy'],
  }),
  row('MN', {
    windows: everyDay('09:00-21:00'),
    sources: ['Drop Cowboy'],
  }),
  row('NM', {
    windows: everyDay('09:00-21:00'),
    sources: ['Drop Cowboy'],
  }),
  row('NJ', {
    windows: everyDay('08:00-21:00'),
    notes: '08:00-21:00 for texts (the federal floor, stated by the state too).',
    sources: ['Postscript'],
  }),
  row('UT', {
    windows: everyDay('00:00-24:00'),
    noContactOnHolidays: true,
    notes:
      'Holiday ban; exempt with prior express consent. Consent is not known here, so the ' +
      'ban always applies (stricter). No window of its own: CONTACT_HOURS governs.',
    sources: ['dnc.com'],
  }),
];

/** The rows keyed by state. */
export const STATE_RULES: Readonly<Record<string, StateRule>> = Object.freeze(
  Object.fromEntries(ROWS.map((rule) => [rule.state, rule])),
);
