import {
  DISABLE_AFTER_FAILING_MS,
  jittered,
  MAX_RETRY_AFTER_MS,
  retryDelayMs,
} from './retry.policy.js';

/** The default WEBHOOK_RETRY_SCHEDULE (docs/webhooks.md, "Retries"), in ms. */
const SCHEDULE = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const low = 0;
const mid = 0.5;
const high = 0.999_999;

describe('jittered', () => {
  it.each([
    // delay, random, expected
    [0, high, 0],
    [-5, high, 0],
    [5_000, low, 4_000],
    [5_000, mid, 5_000],
    [5_000, high, 6_000],
    [300_000, low, 240_000],
    [300_000, high, 360_000],
    [36_000_000, low, 28_800_000],
  ])('%i ms with random %d is %i ms', (delay, random, expected) => {
    expect(jittered(delay, () => random)).toBe(expected);
  });

  it('stays within ±20 % of every entry but 0, which stays 0', () => {
    for (const entry of SCHEDULE) {
      for (const random of [0, 0.25, 0.5, 0.75, 0.999_999]) {
        const delay = jittered(entry, () => random);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(entry * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.ceil(entry * 1.2));
        if (entry === 0) expect(delay).toBe(0);
      }
    }
  });
});

describe('retryDelayMs', () => {
  it.each<[string, number, number | null, number, number | null]>([
    // case, attempt that failed, Retry-After, random, delay before the next attempt
    ['the first retry: the second entry', 0, null, mid, 5_000],
    ['jitter down', 0, null, low, 4_000],
    ['jitter up', 1, null, high, 360_000],
    ['a later entry', 5, null, mid, 36_000_000],
    ['the last entry: the last retry', 6, null, mid, 36_000_000],
    ['the schedule spent: none (the delivery fails)', 7, null, mid, null],
    ['spent even with a Retry-After', 7, 1_000, mid, null],
    ['a shorter Retry-After: the schedule', 1, 10_000, mid, 300_000],
    ['a longer Retry-After: honoured', 1, 900_000, mid, 900_000],
    ['a Retry-After over the jittered entry', 0, 5_500, high, 6_000],
    ['a Retry-After of 0: the schedule', 0, 0, mid, 5_000],
    ['a Retry-After past the 5-day rule: capped at it', 0, 10 * 86_400_000, mid, 5 * 86_400_000],
  ])('%s', (_case, attempt, retryAfter, random, expected) => {
    expect(retryDelayMs(SCHEDULE, attempt, retryAfter, () => random)).toBe(expected);
  });

  it('with a schedule of one entry, the first failure is final', () => {
    expect(retryDelayMs([0], 0, null, () => mid)).toBeNull();
  });
});

describe('the 5-day rule', () => {
  it('disables after 5 days of failures, and caps a Retry-After at the same period', () => {
    expect(DISABLE_AFTER_FAILING_MS).toBe(5 * 24 * 3600 * 1000);
    expect(MAX_RETRY_AFTER_MS).toBe(DISABLE_AFTER_FAILING_MS);
  });
});
