import { parseContactHours } from '@leadhook/config';
import { checkContactWindow } from './contact-window.js';

// The search must return the EARLIEST allowed instant: check it against the point
// answer (checkContactWindow at a given `now` with no search) on a grid of instants
// between `now` and `until`, for deterministic pseudo-random inputs across 2026
// that include both DST changes.

const HOURS = parseContactHours('08:00-21:00');
const LEADS: ReadonlyArray<readonly [phone: string, state: string | null]> = [
  ['+12125550100', 'NY'],
  ['+18505550100', 'FL'],
  ['+14055550100', 'TX'],
  ['+12055550100', 'AL'],
  ['+14015550100', 'RI'],
  ['+12155550100', 'PA'],
  ['+18085550100', 'HI'],
  ['+19075550100', 'AK'],
  ['+18005550100', 'UT'],
];

function* lcg(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    yield x / 2 ** 31;
  }
}

const random = lcg(20261122);
function next(): number {
  return random.next().value ?? 0;
}

const YEAR_START = Date.UTC(2026, 0, 1);
const DAYS = [Date.UTC(2026, 2, 8), Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 25)];
const CASES = Array.from({ length: 36 }, (_, i) => {
  const lead = LEADS[i % LEADS.length] ?? LEADS[0]!;
  // A third of the cases on a DST change or holiday, the rest anywhere in the year.
  const base =
    i % 3 === 0
      ? (DAYS[i % DAYS.length] ?? YEAR_START)
      : YEAR_START + Math.floor(next() * 364) * 86_400_000;
  const now = base + Math.floor(next() * 86_400_000);
  const attempts =
    lead[1] === 'FL' || lead[1] === 'TX'
      ? [now - 3_600_000, now - 7_200_000, now - 50_000_000]
      : [];
  return [lead[0], lead[1], new Date(now).toISOString(), attempts] as const;
});

function allowedAt(
  phone: string,
  state: string | null,
  ms: number,
  attempts: readonly number[],
): boolean {
  return checkContactWindow({
    phone,
    state,
    contactHours: HOURS,
    now: new Date(ms),
    recentAttempts: attempts.map((a) => new Date(a)),
  }).allowed;
}

let deferred = 0;

test.each(CASES)('%s %s at %s', (phone, state, nowIso, attempts) => {
  const now = Date.parse(nowIso);
  const decision = checkContactWindow({
    phone,
    state,
    contactHours: HOURS,
    now: new Date(now),
    recentAttempts: attempts.map((a) => new Date(a)),
  });
  if (decision.allowed) return;
  deferred += 1;
  const until = decision.until.getTime();
  expect(until).toBeGreaterThan(now);
  expect(allowedAt(phone, state, until, attempts)).toBe(true);
  expect(allowedAt(phone, state, until - 1, attempts)).toBe(false);
  const allowedOnGrid: number[] = [];
  for (let ms = now; ms < until; ms += 7 * 60_000) {
    if (allowedAt(phone, state, ms, attempts)) allowedOnGrid.push(ms);
  }
  expect(allowedOnGrid.map((ms) => new Date(ms).toISOString())).toEqual([]);
});

test('most generated cases are deferrals, so the checks above ran', () => {
  expect(deferred).toBeGreaterThanOrEqual(CASES.length / 2);
});
