import type { ContactHours } from '@leadhook/config';
import { zonesForLead } from './area-codes.js';
import { holidayOn } from './holidays.js';
import { OffsetTimeline, type ZoneClock, zoneNamed } from './offset-timeline.js';
import {
  applicableStateRules,
  type Constraint,
  constraintOf,
  defaultConstraint,
  WEEKDAY_NAMES,
} from './rules.js';

export interface ContactWindowInput {
  /** The lead's phone in E.164. */
  readonly phone: string;
  /** Residence state, USPS code in upper case, if known. */
  readonly state?: string | null;
  /**
   * The lead's ZIP. Reserved: no ZIP→zone data is shipped yet, so it does not
   * narrow the area code's zone set.
   */
  readonly zip?: string | null;
  /** CONTACT_HOURS: the default window, which state rules only narrow. */
  readonly contactHours: ContactHours;
  readonly now: Date;
  /** Instants of the lead's earlier SMS and calls, for the per-24-hour caps. */
  readonly recentAttempts?: readonly Date[];
}

export type ContactWindowDecision =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      /** The earliest instant at which every applicable rule allows contact. */
      readonly until: Date;
      /** Why contact is not allowed at `now` (no phone number in it). */
      readonly reason: string;
    };

/** No opening was found within the search horizon: a misconfiguration. */
export class ContactWindowError extends Error {
  override readonly name = 'ContactWindowError';
}

/**
 * How far ahead the search looks. The widest real gap is a holiday weekend under a
 * no-Sunday rule (3 days); 14 days leaves room and bounds the work.
 */
export const SEARCH_HORIZON_DAYS = 14;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** ISO weekday, 1 = Monday. */
  readonly weekday: number;
  readonly msOfDay: number;
}

function localTime(ms: number, zone: ZoneClock): LocalTime {
  const wall = ms + zone.offset(ms) * MINUTE_MS;
  const d = new Date(wall);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: ((d.getUTCDay() + 6) % 7) + 1,
    msOfDay: ((wall % DAY_MS) + DAY_MS) % DAY_MS,
  };
}

function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/**
 * The instants at which a zone's wall clock reads `minute` on a date: none in a
 * spring-forward gap (the transition itself is a separate candidate), two in an
 * autumn overlap. Assumes at most one offset change within a day of the date.
 */
function wallInstants(zone: ZoneClock, dayStartWall: number, minute: number): number[] {
  const wall = dayStartWall + minute * MINUTE_MS;
  const offsets = new Set([zone.offset(wall - DAY_MS), zone.offset(wall + DAY_MS)]);
  const out: number[] = [];
  for (const offset of offsets) {
    const ms = wall - offset * MINUTE_MS;
    if (zone.offset(ms) === offset) out.push(ms);
  }
  return out;
}

interface Situation {
  readonly zones: readonly ZoneClock[];
  readonly constraints: readonly Constraint[];
  readonly attempts: readonly number[];
}

/** Why contact is not allowed at `ms`, or undefined when every rule allows it. */
function blockedBecause(ms: number, s: Situation): string | undefined {
  for (const c of s.constraints) {
    if (c.maxAttemptsPer24h === null) continue;
    // An attempt exactly 24 h old has left the window.
    const recent = s.attempts.filter((a) => a > ms - DAY_MS).length;
    if (recent >= c.maxAttemptsPer24h) {
      return `${recent} attempts in the last 24 h; ${c.label} allows at most ${c.maxAttemptsPer24h}`;
    }
  }
  for (const zone of s.zones) {
    const local = localTime(ms, zone);
    for (const c of s.constraints) {
      if (c.noContactOnHolidays) {
        const holiday = holidayOn(local);
        if (holiday) {
          return `${holiday.name}${holiday.observed ? ' (observed)' : ''} in ${zone.name}: ${c.label} allows no contact on holidays`;
        }
      }
      const window = c.windows[local.weekday];
      const dayName = WEEKDAY_NAMES[local.weekday] ?? '';
      if (!window) return `${dayName} in ${zone.name}: ${c.label} allows no contact that day`;
      if (
        local.msOfDay < window.startMinute * MINUTE_MS ||
        local.msOfDay >= window.endMinute * MINUTE_MS
      ) {
        const at = hhmm(Math.floor(local.msOfDay / MINUTE_MS));
        return `${at} ${dayName} in ${zone.name} is outside ${c.label} ${hhmm(window.startMinute)}-${hhmm(window.endMinute)}`;
      }
    }
  }
  return undefined;
}

/**
 * Every instant in [from, to] at which some rule may start allowing contact: the
 * window openings in each zone, each zone's offset changes, and each attempt's
 * leaving the 24-hour window. The allowed
 * set is a union of intervals that each start at one of these, so the earliest
 * allowed instant is the first candidate that is allowed.
 */
function candidates(
  from: number,
  to: number,
  zones: readonly OffsetTimeline[],
  s: Situation,
): number[] {
  const out = new Set<number>([from]);
  for (const a of s.attempts) out.add(a + DAY_MS);
  for (const zone of zones) {
    const first = localTime(from, zone);
    const firstDay = Date.UTC(first.year, first.month - 1, first.day) - DAY_MS;
    for (let i = 0; i <= SEARCH_HORIZON_DAYS + 2; i++) {
      const dayStart = firstDay + i * DAY_MS;
      const weekday = ((new Date(dayStart).getUTCDay() + 6) % 7) + 1;
      // A banned day or holiday ends at a midnight, but contact resumes only at the
      // next window opening, which is a candidate already.
      const minutes = new Set<number>();
      for (const c of s.constraints) {
        const window = c.windows[weekday];
        if (window) minutes.add(window.startMinute);
      }
      for (const minute of minutes) {
        for (const ms of wallInstants(zone, dayStart, minute)) out.add(ms);
      }
    }
    for (const ms of zone.changes()) out.add(ms);
  }
  return [...out].filter((ms) => ms >= from && ms <= to).sort((a, b) => a - b);
}

/**
 * May the lead be contacted (SMS or call) at `now`? If not, the earliest instant at
 * which every applicable rule allows it.
 *
 * Applies CONTACT_HOURS and the state rows (state-rules.data.ts) of the lead's
 * residence state and, for Oklahoma, of the area code's state; in the local time of
 * every zone the number may be in (the generated area-code table with its overrides). Pure: `now`
 * is a parameter and nothing is read from outside.
 *
 * @throws ContactWindowError when no instant within SEARCH_HORIZON_DAYS is allowed
 *   (e.g. a CONTACT_HOURS that does not meet a state's window).
 */
export function checkContactWindow(input: ContactWindowInput): ContactWindowDecision {
  const now = input.now.getTime();
  if (!Number.isFinite(now)) throw new TypeError('now is not a valid Date');
  const lead = zonesForLead(input.phone, input.state);
  const rules = applicableStateRules(input.state, lead.areaCodeStates);
  const situation: Situation = {
    zones: lead.zones.map(zoneNamed),
    constraints: [defaultConstraint(input.contactHours), ...rules.map(constraintOf)],
    attempts: (input.recentAttempts ?? []).map((d) => d.getTime()).filter(Number.isFinite),
  };

  const reason = blockedBecause(now, situation);
  if (reason === undefined) return { allowed: true };

  const horizon = now + SEARCH_HORIZON_DAYS * DAY_MS;
  // The candidates look at local days from the one before `now` to two past the
  // horizon, and a day either side of each wall time.
  const timelines = lead.zones.map(
    (name) => new OffsetTimeline(name, now - 3 * DAY_MS, horizon + 3 * DAY_MS),
  );
  const search: Situation = { ...situation, zones: timelines };
  for (const ms of candidates(now, horizon, timelines, search)) {
    if (blockedBecause(ms, search) === undefined) {
      return { allowed: false, until: new Date(ms), reason };
    }
  }
  throw new ContactWindowError(
    `no contact window within ${SEARCH_HORIZON_DAYS} days for zones ${lead.zones.join(', ')} ` +
      `under ${situation.constraints.map((c) => c.label).join(' + ')} (${input.contactHours.text})`,
  );
}
