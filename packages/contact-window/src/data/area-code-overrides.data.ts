/**
 * Hand-kept corrections to the generated area-code table (area-codes.json).
 *
 * Each row REPLACES the generated zone set of its area code (and, where given, its
 * country and states). Rows exist because no upstream data set is exact: Google's
 * libphonenumber sometimes names one zone where an area code spans two, or a zone
 * that only some exchanges use. More zones is the stricter reading: contact is
 * allowed only when every zone of the set is inside its window, so an extra zone
 * can only narrow the window, never widen it.
 *
 * To correct a row, edit it here (with its source and the date checked) and leave
 * the generated JSON alone; regenerating it must not lose the correction.
 */

export interface AreaCodeOverride {
  /** IANA zones the area code may be in (replaces the generated set). */
  readonly zones: readonly string[];
  /** ISO country; only needed for an area code absent from the generated table. */
  readonly country?: string;
  /** USPS state codes; only needed for an area code absent from the generated table. */
  readonly states?: readonly string[];
  readonly note: string;
  readonly sources: readonly string[];
  readonly checked: string;
}

const EASTERN = 'America/New_York';
const CENTRAL = 'America/Chicago';
const MOUNTAIN = 'America/Denver';
const PACIFIC = 'America/Los_Angeles';

const DIALER_DOCS = 'dialer documentation on split area codes';
const DESIGN = 'docs/api.md, "Contact window" (split area codes)';
const CHECKED = '2026-11-22';

function split(zones: readonly string[], note: string): AreaCodeOverride {
  return { zones, note, sources: [DIALER_DOCS, DESIGN], checked: CHECKED };
}

export const AREA_CODE_OVERRIDES: Readonly<Record<string, AreaCodeOverride>> = {
  '850': split([CENTRAL, EASTERN], 'Florida panhandle: west of the Apalachicola is Central.'),
  '219': split([CENTRAL, EASTERN], 'Indiana: the northwest counties are Central.'),
  '574': split([CENTRAL, EASTERN], 'Indiana: Starke County and neighbours are Central.'),
  '812': split([CENTRAL, EASTERN], 'Indiana: the southwest corner is Central.'),
  '930': split([CENTRAL, EASTERN], 'Overlay of 812; upstream names Eastern only.'),
  '620': split([CENTRAL, MOUNTAIN], 'Kansas: four western counties are Mountain.'),
  '785': split([CENTRAL, MOUNTAIN], 'Kansas: Sherman/Wallace counties are Mountain.'),
  '270': split([CENTRAL, EASTERN], 'Kentucky: western Kentucky is Central; upstream says Eastern.'),
  '606': split([CENTRAL, EASTERN], 'Kentucky: a few southern counties are Central.'),
  '906': split([EASTERN, CENTRAL], 'Michigan Upper Peninsula: four counties are Central.'),
  '679': {
    zones: [EASTERN, CENTRAL],
    country: 'US',
    states: ['MI'],
    note:
      'Michigan; absent from the upstream data. Listed with the Upper Peninsula splits by ' +
      'the dialer documentation; probably a Detroit overlay (Eastern only), so Central is ' +
      'the stricter reading until checked.',
    sources: [DIALER_DOCS, DESIGN],
    checked: CHECKED,
  },
  '947': split(
    [EASTERN, CENTRAL],
    'Michigan; listed with the Upper Peninsula splits. Probably an overlay of 248 ' +
      '(Eastern only); Central kept as the stricter reading until checked.',
  ),
  '701': split([CENTRAL, MOUNTAIN], 'North Dakota: the southwest is Mountain.'),
  '308': split([CENTRAL, MOUNTAIN], 'Nebraska: the panhandle and west are Mountain.'),
  '402': split([CENTRAL, MOUNTAIN], 'Nebraska; upstream says Central only.'),
  '531': split([CENTRAL, MOUNTAIN], 'Overlay of 402; upstream says Central only.'),
  '605': split([CENTRAL, MOUNTAIN], 'South Dakota: west river is Mountain.'),
  '423': split([EASTERN, CENTRAL], 'Tennessee: Marion County and neighbours are Central.'),
  '432': split([CENTRAL, MOUNTAIN], 'West Texas: Hudspeth/Culberson area is Mountain.'),
  '915': split([CENTRAL, MOUNTAIN], 'El Paso is Mountain; parts of the area code are Central.'),
  '208': split([MOUNTAIN, PACIFIC], 'Idaho: the panhandle is Pacific.'),
  '458': split([PACIFIC, MOUNTAIN], 'Overlay of 541; upstream says Pacific only.'),
  '541': split([PACIFIC, MOUNTAIN], 'Oregon: Malheur County is Mountain.'),
  '907': split(
    ['America/Anchorage', 'America/Adak'],
    'Alaska: the Aleutians west of 169°30′W keep Hawaii–Aleutian time. Upstream also names ' +
      'Pacific/Honolulu and America/Juneau for some prefixes; Juneau shares Anchorage’s ' +
      'offsets and Honolulu is not in Alaska.',
  ),
  '709': split(
    ['America/St_Johns', 'America/Goose_Bay'],
    'Newfoundland time; most of Labrador keeps Atlantic time with DST (America/Goose_Bay). ' +
      'Upstream names America/Puerto_Rico (no DST) and America/Halifax.',
  ),
};
