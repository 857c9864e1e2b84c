import { holidayOn, holidaysOf } from './holidays.js';

function list(year: number): string[] {
  return holidaysOf(year).map(
    (h) =>
      `${String(h.month).padStart(2, '0')}-${String(h.day).padStart(2, '0')} ${h.name}${h.observed ? ' (observed)' : ''}`,
  );
}

describe('federal holiday calendar', () => {
  test('2026, with Independence Day on a Saturday observed on Friday', () => {
    expect(list(2026)).toEqual([
      "01-01 New Year's Day",
      '01-19 Birthday of Martin Luther King, Jr.',
      "02-16 Washington's Birthday",
      '05-25 Memorial Day',
      '06-19 Juneteenth National Independence Day',
      '07-03 Independence Day (observed)',
      '07-04 Independence Day',
      '09-07 Labor Day',
      '10-12 Columbus Day',
      '11-11 Veterans Day',
      '11-26 Thanksgiving Day',
      '12-25 Christmas Day',
    ]);
  });

  test.each([
    // New Year's Day 2022 was a Saturday: observed Friday 2021-12-31.
    [{ year: 2021, month: 12, day: 31 }, "New Year's Day", true],
    // Christmas 2027 and Juneteenth 2027 fall on Saturdays.
    [{ year: 2027, month: 12, day: 24 }, 'Christmas Day', true],
    [{ year: 2027, month: 6, day: 18 }, 'Juneteenth National Independence Day', true],
    // Christmas 2022 was a Sunday: observed Monday the 26th.
    [{ year: 2022, month: 12, day: 26 }, 'Christmas Day', true],
    [{ year: 2022, month: 12, day: 25 }, 'Christmas Day', false],
    // Memorial Day 2027: the last Monday of May is the 31st.
    [{ year: 2027, month: 5, day: 31 }, 'Memorial Day', false],
  ])('%j is %s (observed: %s)', (date, name, observed) => {
    expect(holidayOn(date)).toMatchObject({ name, observed });
  });

  test('an ordinary day is not a holiday', () => {
    expect(holidayOn({ year: 2026, month: 12, day: 24 })).toBeUndefined();
  });
});
