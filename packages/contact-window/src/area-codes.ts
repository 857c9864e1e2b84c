import { IANAZone } from 'luxon';
import { AREA_CODE_OVERRIDES } from './data/area-code-overrides.data.js';
import { GENERATED_AREA_CODES } from './data/area-codes.generated.js';
import type { GeneratedAreaCodeTable } from './data/area-codes.types.js';

/** What the tables say about one NANP area code. */
export interface AreaCodeInfo {
  readonly areaCode: string;
  /** ISO country: US, CA, or a US territory (PR, VI, GU, MP, AS). */
  readonly country: string;
  /** USPS codes of the state(s) or province(s) it serves. */
  readonly states: readonly string[];
  /** Every IANA zone a number in it may be in. */
  readonly zones: readonly string[];
  /** `override` when a row of area-code-overrides.data.ts replaced the generated one. */
  readonly source: 'generated' | 'override';
}

/**
 * How the zone set of a lead was found:
 * - `area-code`: a +1 number whose area code is in the table;
 * - `toll-free`: a toll-free number, which has no location: every US zone;
 * - `unknown-area-code`: a +1 number not in the table: every US zone;
 * - `residence-state`: a number outside the NANP (or not E.164): the zones of the
 *   lead's residence state, since its country's zones are not modelled here;
 * - `every-us-zone`: outside the NANP and no known residence state.
 */
export type ZoneBasis =
  | 'area-code'
  | 'toll-free'
  | 'unknown-area-code'
  | 'residence-state'
  | 'every-us-zone';

export interface LeadZones {
  readonly zones: readonly string[];
  readonly basis: ZoneBasis;
  /** The area code's state(s); empty unless basis is `area-code`. */
  readonly areaCodeStates: readonly string[];
}

/**
 * "Every US zone", Hawaii through Eastern: the set for a number with no location.
 * Adak and Phoenix are listed because their offsets differ from their neighbours'
 * part of the year.
 */
export const EVERY_US_ZONE: readonly string[] = Object.freeze([
  'Pacific/Honolulu',
  'America/Adak',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Phoenix',
  'America/Denver',
  'America/Chicago',
  'America/New_York',
]);

/** NANP toll-free codes in service (the 8XX series). */
export const TOLL_FREE_AREA_CODES: ReadonlySet<string> = new Set([
  '800',
  '833',
  '844',
  '855',
  '866',
  '877',
  '888',
]);

function fail(message: string): never {
  throw new Error(`contact-window area-code data: ${message}`);
}

function checkZones(areaCode: string, zones: readonly string[]): void {
  if (zones.length === 0) fail(`${areaCode} has no zone`);
  for (const zone of zones) {
    if (!IANAZone.isValidZone(zone)) fail(`${areaCode} names an unknown zone "${zone}"`);
  }
}

/**
 * Checked once at import: a bad edit (an unknown zone name) stops the process at
 * boot instead of mis-timing a contact later.
 */
function load(generated: GeneratedAreaCodeTable): Map<string, AreaCodeInfo> {
  const table = new Map<string, AreaCodeInfo>();
  for (const [areaCode, row] of Object.entries(generated.areaCodes)) {
    if (!/^[2-9]\d{2}$/.test(areaCode)) fail(`"${areaCode}" is not an area code`);
    checkZones(areaCode, row.zones);
    table.set(areaCode, { areaCode, ...row, source: 'generated' });
  }
  for (const [areaCode, override] of Object.entries(AREA_CODE_OVERRIDES)) {
    if (!/^[2-9]\d{2}$/.test(areaCode)) fail(`override "${areaCode}" is not an area code`);
    checkZones(areaCode, override.zones);
    const base = table.get(areaCode);
    const country = override.country ?? base?.country;
    const states = override.states ?? base?.states;
    if (country === undefined || states === undefined) {
      fail(`override ${areaCode} is not in the generated table and names no country/states`);
    }
    table.set(areaCode, { areaCode, country, states, zones: override.zones, source: 'override' });
  }
  return table;
}

const TABLE = load(GENERATED_AREA_CODES);

/**
 * Zones of each state, derived from the area-code table (the union of the zones
 * of its area codes), so it needs no table of its own and follows the overrides.
 */
const STATE_ZONES: ReadonlyMap<string, readonly string[]> = (() => {
  const byState = new Map<string, Set<string>>();
  for (const info of TABLE.values()) {
    for (const state of info.states) {
      const set = byState.get(state) ?? new Set<string>();
      for (const zone of info.zones) set.add(zone);
      byState.set(state, set);
    }
  }
  return new Map([...byState].map(([state, set]) => [state, [...set].sort()]));
})();

/** The table's row for an area code, overrides applied. */
export function areaCodeInfo(areaCode: string): AreaCodeInfo | undefined {
  return TABLE.get(areaCode);
}

/** Every IANA zone of a state's area codes, or undefined for a state not in the table. */
export function zonesOfState(state: string): readonly string[] | undefined {
  return STATE_ZONES.get(state);
}

/** The area code of a NANP number in E.164 (+1 and ten digits), else undefined. */
export function nanpAreaCode(phone: string): string | undefined {
  return /^\+1(\d{3})\d{7}$/.exec(phone.trim())?.[1];
}

/**
 * The set of zones a lead may be in. Contact is allowed only when every one of
 * them is inside its window, so a wider set is the safer answer when in doubt.
 */
export function zonesForLead(phone: string, residenceState?: string | null): LeadZones {
  const areaCode = nanpAreaCode(phone);
  if (areaCode !== undefined) {
    if (TOLL_FREE_AREA_CODES.has(areaCode)) {
      return { zones: EVERY_US_ZONE, basis: 'toll-free', areaCodeStates: [] };
    }
    const info = TABLE.get(areaCode);
    if (info === undefined) {
      return { zones: EVERY_US_ZONE, basis: 'unknown-area-code', areaCodeStates: [] };
    }
    return { zones: info.zones, basis: 'area-code', areaCodeStates: info.states };
  }
  // Outside the NANP: the country's zones are not modelled, and "every US zone" would
  // be meaningless for, say, a London number. The residence state is the one
  // location we know.
  const stateZones = residenceState ? STATE_ZONES.get(residenceState) : undefined;
  if (stateZones !== undefined) {
    return { zones: stateZones, basis: 'residence-state', areaCodeStates: [] };
  }
  return { zones: EVERY_US_ZONE, basis: 'every-us-zone', areaCodeStates: [] };
}
