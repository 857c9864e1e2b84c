import { parseContactHours } from '@leadhook/config';
import { ContactWindowError, checkContactWindow } from './contact-window.js';

const HOURS = parseContactHours('08:00-21:00');

interface Case {
  readonly phone: string;
  readonly state?: string | null;
  readonly now: string;
  readonly attempts?: readonly string[];
  readonly hours?: string;
}

function decide(c: Case) {
  return checkContactWindow({
    phone: c.phone,
    state: c.state ?? null,
    contactHours: c.hours ? parseContactHours(c.hours) : HOURS,
    now: new Date(c.now),
    recentAttempts: (c.attempts ?? []).map((a) => new Date(a)),
  });
}

/** 'allowed', or the ISO instant (UTC) of `until`. */
function outcome(c: Case): string {
  const decision = decide(c);
  return decision.allowed ? 'allowed' : decision.until.toISOString();
}

function reason(c: Case): string {
  const decision = decide(c);
  return decision.allowed ? 'allowed' : decision.reason;
}

/** A case: `phone` at `now`, with the residence state, attempts or hours in `more`. */
function at(phone: string, now: string, more: Omit<Case, 'phone' | 'now'> = {}): Case {
  return { phone, now, ...more };
}

type Row = readonly [label: string, c: Case, expected: string];

function run(rows: readonly Row[]): void {
  test.each(rows)('%s', (_label, c, expected) => {
    expect(outcome(c)).toBe(expected === 'allowed' ? expected : new Date(expected).toISOString());
  });
}

const NY = '+12125550100';
const CHI = '+13125550100';

describe('DST changes (2026-03-08 spring, 2026-11-01 autumn)', () => {
  run([
    // Saturday before the change: 08:00 EST = 13:00Z.
    ['New York, the day before spring', at(NY, '2026-03-07T12:30:00Z'), '2026-03-07T13:00:00Z'],
    // The change day: 00:00 EST; the window opens at 08:00 EDT = 12:00Z.
    ['New York, spring change day', at(NY, '2026-03-08T05:00:00Z'), '2026-03-08T12:00:00Z'],
    ['New York, spring, 08:00 EDT', at(NY, '2026-03-08T12:00:00Z'), 'allowed'],
    ['New York, spring, 21:00 EDT', at(NY, '2026-03-09T01:00:00Z'), '2026-03-09T12:00:00Z'],
    ['Chicago, the day before spring', at(CHI, '2026-03-07T13:30:00Z'), '2026-03-07T14:00:00Z'],
    ['Chicago, spring change day', at(CHI, '2026-03-08T06:00:00Z'), '2026-03-08T13:00:00Z'],
    // Autumn: 00:30 EDT on the change day; opens 08:00 EST = 13:00Z.
    ['New York, autumn change day', at(NY, '2026-11-01T04:30:00Z'), '2026-11-01T13:00:00Z'],
    ['New York, autumn, 07:59 EST', at(NY, '2026-11-01T12:59:00Z'), '2026-11-01T13:00:00Z'],
    ['New York, the day before autumn', at(NY, '2026-10-31T11:00:00Z'), '2026-10-31T12:00:00Z'],
    ['Chicago, autumn change day', at(CHI, '2026-11-01T05:30:00Z'), '2026-11-01T14:00:00Z'],
    ['Chicago, autumn, 20:59 CST', at(CHI, '2026-11-02T02:59:00Z'), 'allowed'],
    ['Chicago, autumn, 21:00 CST', at(CHI, '2026-11-02T03:00:00Z'), '2026-11-02T14:00:00Z'],
    // A window opening inside the spring gap (02:30 does not exist) opens at the
    // change itself, 03:00 EDT = 07:00Z.
    [
      'opening in the spring gap',
      at(NY, '2026-03-08T06:00:00Z', { hours: '02:30-21:00' }),
      '2026-03-08T07:00:00Z',
    ],
    // In the autumn overlap 01:30 happens twice: 05:30Z (EDT) and 06:30Z (EST).
    [
      'opening in the autumn overlap',
      at(NY, '2026-11-01T05:50:00Z', { hours: '01:30-01:45' }),
      '2026-11-01T06:30:00Z',
    ],
    // PA's Sunday 13:30 opening on the spring change day: 13:30 EDT = 17:30Z.
    [
      'PA Sunday on spring change day',
      at('+12155550100', '2026-03-08T15:00:00Z', { state: 'PA' }),
      '2026-03-08T17:30:00Z',
    ],
  ]);
});

describe('no DST: Hawaii and Arizona open at the same UTC instant across the change', () => {
  run([
    ['Honolulu before', at('+18085550100', '2026-03-07T17:00:00Z'), '2026-03-07T18:00:00Z'],
    ['Honolulu after', at('+18085550100', '2026-03-09T17:00:00Z'), '2026-03-09T18:00:00Z'],
    ['Phoenix before', at('+16025550100', '2026-03-07T14:00:00Z'), '2026-03-07T15:00:00Z'],
    ['Phoenix after', at('+16025550100', '2026-03-09T14:00:00Z'), '2026-03-09T15:00:00Z'],
    // Denver does shift: 08:00 MDT = 14:00Z after the change.
    ['Denver after (contrast)', at('+13035550100', '2026-03-09T13:00:00Z'), '2026-03-09T14:00:00Z'],
  ]);
});

describe('split area codes: every zone must be inside its window', () => {
  run([
    // 08:30 Eastern = 07:30 Central: wait for 08:00 Central.
    [
      '850 at 08:30 Eastern',
      at('+18505550100', '2026-06-10T08:30:00-04:00'),
      '2026-06-10T08:00:00-05:00',
    ],
    ['850 at 08:00 Central', at('+18505550100', '2026-06-10T08:00:00-05:00'), 'allowed'],
    // FL closes at 20:00: 19:30 Central is 20:30 Eastern.
    [
      '850 FL at 19:30 Central',
      at('+18505550100', '2026-06-10T19:30:00-05:00', { state: 'FL' }),
      '2026-06-11T08:00:00-05:00',
    ],
    [
      '850 FL at 18:59 Central',
      at('+18505550100', '2026-06-10T18:59:00-05:00', { state: 'FL' }),
      'allowed',
    ],
    // 270 is Eastern upstream; the override adds Central (western Kentucky).
    [
      '270 at 08:30 Eastern',
      at('+12705550100', '2026-06-10T08:30:00-04:00'),
      '2026-06-10T08:00:00-05:00',
    ],
    // 208 Idaho: Mountain and Pacific; 08:30 Mountain = 07:30 Pacific.
    [
      '208 at 08:30 Mountain',
      at('+12085550100', '2026-06-10T08:30:00-06:00'),
      '2026-06-10T08:00:00-07:00',
    ],
    // 907: Adak opens an hour after Anchorage.
    [
      '907 at 08:00 Anchorage',
      at('+19075550100', '2026-06-10T08:00:00-08:00'),
      '2026-06-10T08:00:00-09:00',
    ],
  ]);

  test('the reason names the zone that is outside', () => {
    expect(reason({ phone: '+18505550100', now: '2026-06-10T08:30:00-04:00' })).toBe(
      '07:30 Wednesday in America/Chicago is outside CONTACT_HOURS 08:00-21:00',
    );
  });
});

describe('Sunday and holiday bans', () => {
  run([
    [
      'AL on a Sunday',
      at('+12055550100', '2026-06-14T10:00:00-05:00', { state: 'AL' }),
      '2026-06-15T08:00:00-05:00',
    ],
    [
      'AL on Christmas 2026 (a Friday)',
      at('+12055550100', '2026-12-25T10:00:00-06:00', { state: 'AL' }),
      '2026-12-26T08:00:00-06:00',
    ],
    [
      'AL on Christmas Eve',
      at('+12055550100', '2026-12-24T10:00:00-06:00', { state: 'AL' }),
      'allowed',
    ],
    // July 3 (observed) and July 4 (Saturday) are holidays, July 5 a Sunday.
    [
      'AL on observed Independence Day',
      at('+12055550100', '2026-07-03T10:00:00-05:00', { state: 'AL' }),
      '2026-07-06T08:00:00-05:00',
    ],
    [
      'RI on Thanksgiving',
      at('+14015550100', '2026-11-26T12:00:00-05:00', { state: 'RI' }),
      '2026-11-27T09:00:00-05:00',
    ],
    [
      'no holiday ban in GA',
      at('+14045550100', '2026-12-25T10:00:00-05:00', { state: 'GA' }),
      'allowed',
    ],
  ]);

  test('the reason names the holiday', () => {
    expect(reason({ phone: '+12055550100', state: 'AL', now: '2026-12-25T10:00:00-06:00' })).toBe(
      'Christmas Day in America/Chicago: AL allows no contact on holidays',
    );
  });
});

describe('per-24-hour caps', () => {
  const FL = '+13055550100';
  run([
    [
      'FL, 2 attempts: allowed',
      at(FL, '2026-06-10T21:00:00Z', {
        state: 'FL',
        attempts: ['2026-06-10T13:00:00Z', '2026-06-10T15:00:00Z'],
      }),
      'allowed',
    ],
    [
      'FL, 3 attempts: the oldest + 24 h',
      at(FL, '2026-06-10T21:00:00Z', {
        state: 'FL',
        attempts: ['2026-06-10T13:00:00Z', '2026-06-10T15:00:00Z', '2026-06-10T20:00:00Z'],
      }),
      '2026-06-11T13:00:00Z',
    ],
    [
      'FL, 3 attempts, 4th older than 24 h',
      at(FL, '2026-06-11T13:30:00Z', {
        state: 'FL',
        attempts: [
          '2026-06-10T13:00:00Z',
          '2026-06-10T14:00:00Z',
          '2026-06-10T15:00:00Z',
          '2026-06-10T16:00:00Z',
        ],
      }),
      '2026-06-11T14:00:00Z',
    ],
    // The release (20:30 EDT) is outside FL's window: wait for 08:00 the next day.
    [
      'FL, release outside the window',
      at(FL, '2026-06-11T23:00:00Z', {
        state: 'FL',
        attempts: ['2026-06-11T00:30:00Z', '2026-06-11T00:31:00Z', '2026-06-11T00:32:00Z'],
      }),
      '2026-06-12T12:00:00Z',
    ],
    [
      'no cap in GA',
      at('+14045550100', '2026-06-10T21:00:00Z', {
        state: 'GA',
        attempts: ['2026-06-10T13:00:00Z', '2026-06-10T15:00:00Z', '2026-06-10T20:00:00Z'],
      }),
      'allowed',
    ],
    [
      'MD cap',
      at('+14105550100', '2026-06-10T16:00:00Z', {
        state: 'MD',
        attempts: ['2026-06-10T13:00:00Z', '2026-06-10T14:00:00Z', '2026-06-10T15:00:00Z'],
      }),
      '2026-06-11T13:00:00Z',
    ],
  ]);

  test('an attempt exactly 24 h old no longer counts', () => {
    const attempts = ['2026-06-10T14:00:00Z', '2026-06-10T15:00:00Z', '2026-06-10T16:00:00Z'];
    expect(outcome({ phone: FL, state: 'FL', now: '2026-06-11T14:00:00Z', attempts })).toBe(
      'allowed',
    );
    expect(outcome({ phone: FL, state: 'FL', now: '2026-06-11T13:59:59.999Z', attempts })).toBe(
      '2026-06-11T14:00:00.000Z',
    );
  });
});

describe('Oklahoma area code presumes an Oklahoma resident', () => {
  const OK_PHONE = '+14055550100';
  run([
    // TX residence: TX's Sunday noon start applies...
    [
      '405 + TX, Sunday 11:00',
      at(OK_PHONE, '2026-06-14T11:00:00-05:00', { state: 'TX' }),
      '2026-06-14T12:00:00-05:00',
    ],
    // ...and OK's 20:00 close; Monday the later TX 09:00 start.
    [
      '405 + TX, Sunday 20:00',
      at(OK_PHONE, '2026-06-14T20:00:00-05:00', { state: 'TX' }),
      '2026-06-15T09:00:00-05:00',
    ],
    [
      '214 + TX, Sunday 20:00 (contrast)',
      at('+12145550100', '2026-06-14T20:00:00-05:00', { state: 'TX' }),
      'allowed',
    ],
    [
      '405 + TX, OK cap',
      at(OK_PHONE, '2026-06-10T16:00:00Z', {
        state: 'TX',
        attempts: ['2026-06-10T14:00:00Z', '2026-06-10T14:30:00Z', '2026-06-10T15:00:00Z'],
      }),
      '2026-06-11T14:00:00Z',
    ],
    [
      '405 + no state, 20:00',
      at(OK_PHONE, '2026-06-10T20:00:00-05:00'),
      '2026-06-11T08:00:00-05:00',
    ],
  ]);
});

describe('numbers without a single location', () => {
  run([
    // Toll-free: every US zone; in June that is 18:00Z (08:00 Honolulu) to 01:00Z (21:00 EDT).
    [
      'toll-free before Honolulu opens',
      at('+18005550100', '2026-06-10T17:59:00Z'),
      '2026-06-10T18:00:00Z',
    ],
    ['toll-free, Honolulu 08:00', at('+18885550100', '2026-06-10T18:00:00Z'), 'allowed'],
    ['toll-free, New York 20:59', at('+18775550100', '2026-06-11T00:59:00Z'), 'allowed'],
    [
      'toll-free, New York 21:00',
      at('+18665550100', '2026-06-11T01:00:00Z'),
      '2026-06-11T18:00:00Z',
    ],
    // January: 19:00Z (08:00 Honolulu) is 14:00 EST, still open.
    ['toll-free in winter', at('+18445550100', '2026-01-14T13:00:00Z'), '2026-01-14T18:00:00Z'],
    ['unknown area code', at('+19995550100', '2026-06-10T17:00:00Z'), '2026-06-10T18:00:00Z'],
    // Outside the NANP: the residence state's zones (TX: Central and Mountain).
    [
      'UK number, TX resident',
      at('+442071234567', '2026-06-10T14:00:00Z', { state: 'TX' }),
      '2026-06-10T15:00:00Z',
    ],
    ['UK number, no state', at('+442071234567', '2026-06-10T17:00:00Z'), '2026-06-10T18:00:00Z'],
  ]);

  test('the toll-free reason names the zone that is outside', () => {
    expect(reason({ phone: '+18005550100', now: '2026-06-11T01:00:00Z' })).toContain(
      'in America/New_York',
    );
  });
});

describe('misconfiguration', () => {
  test('a CONTACT_HOURS that never meets the state window throws', () => {
    expect(() =>
      outcome({
        phone: '+14015550100',
        state: 'RI',
        now: '2026-06-10T12:00:00Z',
        hours: '18:00-24:00',
      }),
    ).toThrow(ContactWindowError);
  });

  test('an invalid now throws', () => {
    expect(() => outcome({ phone: NY, now: 'not a date' })).toThrow(TypeError);
  });
});
