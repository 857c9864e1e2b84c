import { parseContactHours } from '@leadhook/config';
import { checkContactWindow } from './contact-window.js';
import { STATE_RULES } from './data/state-rules.data.js';

const HOURS = parseContactHours('08:00-21:00');
const DEV_HOURS = parseContactHours('00:00-24:00');

/** 'allowed', or the ISO instant (UTC) of `until`. */
function outcome(phone: string, state: string, now: string, hours = HOURS): string {
  const decision = checkContactWindow({ phone, state, contactHours: hours, now: new Date(now) });
  return decision.allowed ? 'allowed' : decision.until.toISOString();
}

function utc(instant: string): string {
  return new Date(instant).toISOString();
}

// June 2026, daylight time everywhere: New York -04:00, Chicago -05:00, Denver -06:00,
// Los Angeles -07:00. 2026-06-10 is a Wednesday, 06-12 Friday, 06-13 Saturday,
// 06-14 Sunday, 06-15 Monday. Each phone's area code is single-zone in its state.
const ROWS: ReadonlyArray<readonly [state: string, phone: string, now: string, expected: string]> =
  [
    ['FL', '+13055550100', '2026-06-10T19:59:00-04:00', 'allowed'],
    ['FL', '+13055550100', '2026-06-10T20:00:00-04:00', '2026-06-11T08:00:00-04:00'],
    ['OK', '+14055550100', '2026-06-10T19:30:00-05:00', 'allowed'],
    ['OK', '+14055550100', '2026-06-10T20:15:00-05:00', '2026-06-11T08:00:00-05:00'],
    ['MD', '+14105550100', '2026-06-10T08:00:00-04:00', 'allowed'],
    ['MD', '+14105550100', '2026-06-10T20:30:00-04:00', '2026-06-11T08:00:00-04:00'],
    ['WA', '+12065550100', '2026-06-10T19:00:00-07:00', 'allowed'],
    ['WA', '+12065550100', '2026-06-10T20:00:00-07:00', '2026-06-11T08:00:00-07:00'],
    ['TX', '+12145550100', '2026-06-13T09:00:00-05:00', 'allowed'],
    ['TX', '+12145550100', '2026-06-13T08:59:00-05:00', '2026-06-13T09:00:00-05:00'],
    ['TX', '+12145550100', '2026-06-14T12:00:00-05:00', 'allowed'],
    ['TX', '+12145550100', '2026-06-14T10:00:00-05:00', '2026-06-14T12:00:00-05:00'],
    ['AL', '+12055550100', '2026-06-13T19:59:00-05:00', 'allowed'],
    ['AL', '+12055550100', '2026-06-13T20:00:00-05:00', '2026-06-15T08:00:00-05:00'],
    ['LA', '+15045550100', '2026-06-10T08:00:00-05:00', 'allowed'],
    ['LA', '+15045550100', '2026-06-14T09:00:00-05:00', '2026-06-15T08:00:00-05:00'],
    ['MS', '+16015550100', '2026-06-13T19:00:00-05:00', 'allowed'],
    ['MS', '+16015550100', '2026-06-13T20:30:00-05:00', '2026-06-15T08:00:00-05:00'],
    ['PA', '+12155550100', '2026-06-14T13:30:00-04:00', 'allowed'],
    ['PA', '+12155550100', '2026-06-14T12:00:00-04:00', '2026-06-14T13:30:00-04:00'],
    ['PA', '+12155550100', '2026-06-10T08:30:00-04:00', '2026-06-10T09:00:00-04:00'],
    ['RI', '+14015550100', '2026-06-10T09:00:00-04:00', 'allowed'],
    ['RI', '+14015550100', '2026-06-13T16:59:00-04:00', 'allowed'],
    ['RI', '+14015550100', '2026-06-12T18:00:00-04:00', '2026-06-13T10:00:00-04:00'],
    ['RI', '+14015550100', '2026-06-13T17:00:00-04:00', '2026-06-15T09:00:00-04:00'],
    ['NV', '+17025550100', '2026-06-10T19:59:00-07:00', 'allowed'],
    ['NV', '+17025550100', '2026-06-10T08:30:00-07:00', '2026-06-10T09:00:00-07:00'],
    ['CT', '+12035550100', '2026-06-10T09:00:00-04:00', 'allowed'],
    ['CT', '+12035550100', '2026-06-10T20:00:00-04:00', '2026-06-11T09:00:00-04:00'],
    ['KY', '+15025550100', '2026-06-10T20:59:00-04:00', 'allowed'],
    ['KY', '+15025550100', '2026-06-10T09:59:00-04:00', '2026-06-10T10:00:00-04:00'],
    ['MA', '+16175550100', '2026-06-10T08:00:00-04:00', 'allowed'],
    ['MA', '+16175550100', '2026-06-10T20:00:00-04:00', '2026-06-11T08:00:00-04:00'],
    ['MI', '+13135550100', '2026-06-10T20:59:00-04:00', 'allowed'],
    ['MI', '+13135550100', '2026-06-10T08:30:00-04:00', '2026-06-10T09:00:00-04:00'],
    ['MN', '+16125550100', '2026-06-10T09:00:00-05:00', 'allowed'],
    ['MN', '+16125550100', '2026-06-10T08:59:00-05:00', '2026-06-10T09:00:00-05:00'],
    ['NM', '+15055550100', '2026-06-10T20:59:00-06:00', 'allowed'],
    ['NM', '+15055550100', '2026-06-10T08:00:00-06:00', '2026-06-10T09:00:00-06:00'],
    ['NJ', '+12015550100', '2026-06-10T20:59:00-04:00', 'allowed'],
    ['NJ', '+12015550100', '2026-06-10T21:00:00-04:00', '2026-06-11T08:00:00-04:00'],
    ['UT', '+18015550100', '2026-12-24T10:00:00-07:00', 'allowed'],
    ['UT', '+18015550100', '2026-12-25T10:00:00-07:00', '2026-12-26T08:00:00-07:00'],
  ];

describe('state rows (CONTACT_HOURS 08:00-21:00)', () => {
  test.each(ROWS)('%s %s at %s -> %s', (state, phone, now, expected) => {
    expect(outcome(phone, state, now)).toBe(expected === 'allowed' ? expected : utc(expected));
  });

  test('every row of the table has an allowed and a deferred case above', () => {
    for (const state of Object.keys(STATE_RULES)) {
      const cases = ROWS.filter((r) => r[0] === state);
      expect([state, cases.some((r) => r[3] === 'allowed')]).toEqual([state, true]);
      expect([state, cases.some((r) => r[3] !== 'allowed')]).toEqual([state, true]);
    }
  });

  test('every row names its sources and the date checked', () => {
    for (const rule of Object.values(STATE_RULES)) {
      expect([rule.state, rule.sources.length > 0, rule.checked]).toEqual([
        rule.state,
        true,
        '2026-11-22',
      ]);
    }
  });
});

describe('CONTACT_HOURS 00:00-24:00 (development) is still narrowed by state rows', () => {
  test.each([
    ['no rule (GA)', '+14045550100', 'GA', '2026-06-10T03:00:00-04:00', 'allowed'],
    ['FL 20:00', '+13055550100', 'FL', '2026-06-10T21:00:00-04:00', '2026-06-11T08:00:00-04:00'],
    ['TX Sunday', '+12145550100', 'TX', '2026-06-14T11:00:00-05:00', '2026-06-14T12:00:00-05:00'],
    ['TX night', '+12145550100', 'TX', '2026-06-10T02:00:00-05:00', '2026-06-10T09:00:00-05:00'],
    ['NJ 21:00', '+12015550100', 'NJ', '2026-06-10T21:30:00-04:00', '2026-06-11T08:00:00-04:00'],
    ['UT 03:00', '+18015550100', 'UT', '2026-06-10T03:00:00-06:00', 'allowed'],
    [
      'UT Christmas',
      '+18015550100',
      'UT',
      '2026-12-25T10:00:00-07:00',
      '2026-12-26T00:00:00-07:00',
    ],
  ])('%s', (_label, phone, state, now, expected) => {
    expect(outcome(phone, state, now, DEV_HOURS)).toBe(
      expected === 'allowed' ? expected : utc(expected),
    );
  });
});
