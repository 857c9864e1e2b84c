import {
  DAY_MS,
  MAX_RANGE_DAYS,
  resolvePeriod,
  resolveStatsRange,
  type StatsRange,
} from './stats.range.js';

const NOW = new Date('2026-03-10T15:30:00.000Z');

function rangeOf(query: { from?: string; to?: string }): StatsRange {
  const result = resolveStatsRange(query, NOW);
  if (!result.ok) throw new Error(`expected a range, got ${JSON.stringify(result.details)}`);
  return result.range;
}

describe('resolveStatsRange: bounds', () => {
  it.each([
    // [query, from, until (exclusive), first day, last day, day count]
    [{}, '2026-02-09T00:00:00.000Z', '2026-03-11T00:00:00.000Z', '2026-02-09', '2026-03-10', 30],
    [
      { from: '2026-03-01', to: '2026-03-07' },
      '2026-03-01T00:00:00.000Z',
      '2026-03-08T00:00:00.000Z',
      '2026-03-01',
      '2026-03-07',
      7,
    ],
    [
      { from: '2026-03-05', to: '2026-03-05' },
      '2026-03-05T00:00:00.000Z',
      '2026-03-06T00:00:00.000Z',
      '2026-03-05',
      '2026-03-05',
      1,
    ],
    [
      { to: '2026-01-31' },
      '2026-01-02T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-01-02',
      '2026-01-31',
      30,
    ],
    [
      { from: '2026-03-08' },
      '2026-03-08T00:00:00.000Z',
      '2026-03-11T00:00:00.000Z',
      '2026-03-08',
      '2026-03-10',
      3,
    ],
    [
      { from: '2026-03-01T12:00:00Z', to: '2026-03-03T08:00:00.000Z' },
      '2026-03-01T12:00:00.000Z',
      '2026-03-03T08:00:00.001Z',
      '2026-03-01',
      '2026-03-03',
      3,
    ],
    [
      // Offsets are honoured; the days are UTC days.
      { from: '2026-03-02T01:00+02:00', to: '2026-03-03T10:00:00.5-05:00' },
      '2026-03-01T23:00:00.000Z',
      '2026-03-03T15:00:00.501Z',
      '2026-03-01',
      '2026-03-03',
      3,
    ],
    [
      // The same instant on both sides: that one millisecond.
      { from: '2026-03-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' },
      '2026-03-01T00:00:00.000Z',
      '2026-03-01T00:00:00.001Z',
      '2026-03-01',
      '2026-03-01',
      1,
    ],
    [
      // A leap year in full is 366 days: allowed.
      { from: '2024-01-01', to: '2024-12-31' },
      '2024-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      '2024-01-01',
      '2024-12-31',
      366,
    ],
  ])('%j', (query, from, until, firstDay, lastDay, count) => {
    const range = rangeOf(query);
    expect(range.from.toISOString()).toBe(from);
    expect(range.until.toISOString()).toBe(until);
    expect(range.days[0]).toBe(firstDay);
    expect(range.days.at(-1)).toBe(lastDay);
    expect(range.days).toHaveLength(count);
  });

  it('lists consecutive days, across a month end and a leap day', () => {
    expect(rangeOf({ from: '2024-02-27', to: '2024-03-02' }).days).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
      '2024-03-02',
    ]);
  });
});

describe('resolveStatsRange: refusals', () => {
  it.each([
    [{ from: '2026-02-30' }, 'from', 'invalid'],
    [{ to: '2025-02-29' }, 'to', 'invalid'],
    [{ from: '2026-13-01' }, 'from', 'invalid'],
    [{ from: '0050-01-01' }, 'from', 'invalid'],
    [{ to: '2026-03-01T24:00:00Z' }, 'to', 'invalid'],
    [{ to: '2026-03-01T10:60Z' }, 'to', 'invalid'],
    [{ to: '2026-03-01T10:00:00+24:00' }, 'to', 'invalid'],
    [{ to: '2026-03-01T10:00:00' }, 'to', 'invalid'], // no offset: ambiguous
    [{ from: '2026-03-08', to: '2026-03-07' }, 'from', 'invalid'],
    [{ from: '2026-03-01T00:00:00.001Z', to: '2026-03-01T00:00:00.000Z' }, 'from', 'invalid'],
    [{ from: '2026-03-11' }, 'from', 'invalid'], // after today, the default to
    [{ from: '2025-01-01', to: '2026-01-02' }, 'from', 'too_long'], // 367 days
    [{ from: '2024-01-01T00:00:00Z', to: '2025-01-01T00:00:00.000Z' }, 'from', 'too_long'],
    [{ from: '2020-01-01' }, 'from', 'too_long'],
  ])('%j → 422 on %s (%s)', (query, field, code) => {
    const result = resolveStatsRange(query, NOW);
    expect(result).toEqual({
      ok: false,
      details: [expect.objectContaining({ field, code })],
    });
  });

  it('lists both bounds when both are malformed', () => {
    const result = resolveStatsRange({ from: '2026-02-31', to: '2026-04-31' }, NOW);
    expect(result.ok ? [] : result.details.map((d) => d.field)).toEqual(['from', 'to']);
  });

  it('the 366-day ceiling is exact: 366 days of instants pass, one more millisecond does not', () => {
    const from = '2025-01-01T00:00:00.000Z';
    const last = new Date(Date.parse(from) + MAX_RANGE_DAYS * DAY_MS - 1).toISOString();
    const past = new Date(Date.parse(from) + MAX_RANGE_DAYS * DAY_MS).toISOString();
    expect(resolveStatsRange({ from, to: last }, NOW).ok).toBe(true);
    expect(resolveStatsRange({ from, to: past }, NOW).ok).toBe(false);
  });
});

describe('resolvePeriod: the stats bounds, open where not given', () => {
  const iso = (d: Date | undefined) => d?.toISOString();
  it.each([
    [{}, undefined, undefined],
    [{ from: '2026-03-01' }, '2026-03-01T00:00:00.000Z', undefined],
    [{ to: '2026-03-07' }, undefined, '2026-03-08T00:00:00.000Z'],
    [
      { from: '2020-01-01', to: '2026-03-07' },
      '2020-01-01T00:00:00.000Z',
      '2026-03-08T00:00:00.000Z',
    ],
    [{ to: '2026-03-07T10:00:00+02:00' }, undefined, '2026-03-07T08:00:00.001Z'],
    [
      { from: '2026-03-07', to: '2026-03-07T00:00:00Z' },
      '2026-03-07T00:00:00.000Z',
      '2026-03-07T00:00:00.001Z',
    ],
  ])('%j → from %s, until %s', (query, from, until) => {
    const result = resolvePeriod(query);
    expect(result.ok ? [iso(result.from), iso(result.until)] : result.details).toEqual([
      from,
      until,
    ]);
  });

  it.each([
    [{ from: '2026-03-08', to: '2026-03-07' }, 'from'],
    [{ from: '2026-02-30' }, 'from'],
    [{ to: '2026-03-01T10:00:00' }, 'to'],
  ])('%j is invalid (%s)', (query, field) => {
    const result = resolvePeriod(query);
    expect(result.ok ? [] : result.details).toEqual([
      expect.objectContaining({ field, code: 'invalid' }),
    ]);
  });
});
