import { type ContactHours, parseContactHours } from '@leadhook/config';
import { STATE_RULES, type StateRule, type Weekday } from './data/state-rules.data.js';

/**
 * One rule in the form the search uses: the configured CONTACT_HOURS, or a state
 * row. Contact is allowed only when every applicable constraint allows it.
 */
export interface Constraint {
  /** "CONTACT_HOURS" or the state's code; used in reasons. */
  readonly label: string;
  /** Index 1..7 = ISO weekday (Monday..Sunday); index 0 unused. null: no contact. */
  readonly windows: readonly (ContactHours | null)[];
  readonly noContactOnHolidays: boolean;
  readonly maxAttemptsPer24h: number | null;
}

const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** The weekday names by ISO number, for reasons. */
export const WEEKDAY_NAMES = [
  '',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

function fromStateRule(rule: StateRule): Constraint {
  if (!/^[A-Z]{2}$/.test(rule.state)) throw new Error(`state rule "${rule.state}": bad state code`);
  const cap = rule.maxAttemptsPer24h;
  if (cap !== null && !(Number.isInteger(cap) && cap > 0)) {
    throw new Error(`state rule ${rule.state}: maxAttemptsPer24h must be a positive integer`);
  }
  const windows: (ContactHours | null)[] = [null];
  for (const day of WEEKDAYS) {
    const text = rule.windows[day];
    try {
      windows.push(text === null ? null : parseContactHours(text));
    } catch (err) {
      throw new Error(
        `state rule ${rule.state}, ${day}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return {
    label: rule.state,
    windows,
    noContactOnHolidays: rule.noContactOnHolidays,
    maxAttemptsPer24h: cap,
  };
}

/** Parsed once at import: a bad row stops the process at boot. */
const CONSTRAINTS: ReadonlyMap<string, Constraint> = new Map(
  Object.values(STATE_RULES).map((rule) => [rule.state, fromStateRule(rule)]),
);

/** CONTACT_HOURS as a constraint: every day, no holiday ban, no cap. */
export function defaultConstraint(hours: ContactHours): Constraint {
  if (
    !Number.isInteger(hours.startMinute) ||
    !Number.isInteger(hours.endMinute) ||
    hours.startMinute < 0 ||
    hours.endMinute > 1440 ||
    hours.endMinute <= hours.startMinute
  ) {
    throw new Error(`CONTACT_HOURS "${hours.text}" is not a window within one day`);
  }
  return {
    label: 'CONTACT_HOURS',
    windows: [null, hours, hours, hours, hours, hours, hours, hours],
    noContactOnHolidays: false,
    maxAttemptsPer24h: null,
  };
}

/**
 * The state rows that apply to a lead: its residence state's, plus the row of any
 * state whose law presumes that its area codes reach its residents (Oklahoma) when
 * the number's area code is in that state.
 */
export function applicableStateRules(
  residenceState: string | null | undefined,
  areaCodeStates: readonly string[],
): readonly StateRule[] {
  const rules: StateRule[] = [];
  const residence = residenceState ? STATE_RULES[residenceState] : undefined;
  if (residence) rules.push(residence);
  for (const state of areaCodeStates) {
    const rule = STATE_RULES[state];
    if (rule?.areaCodePresumesResident && !rules.includes(rule)) rules.push(rule);
  }
  return rules;
}

export function constraintOf(rule: StateRule): Constraint {
  const constraint = CONSTRAINTS.get(rule.state);
  if (constraint === undefined) throw new Error(`no parsed constraint for ${rule.state}`);
  return constraint;
}
