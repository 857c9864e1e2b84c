import { newId } from '@leadhook/db';
import { useHarness } from '@leadhook/testkit';
import { Harness } from '../testing/harness.js';
import { recordAttempts } from './delivery.queries.js';
import { retryDelayMs } from './retry.policy.js';

// The retry policy end to end, one failed or answered attempt per row: the
// worker's delay (retry.policy.ts) and the verdict that needs the rows
// (webhook_record_attempt, prisma/functions/webhook/webhook_record_attempt.sql:
// a 2xx succeeds, a 410 disables, 5 days of failures disable, a spent schedule
// fails), as the worker records an attempt (recordAttempts).

const SCHEDULE = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const DAY = 86_400_000;
const NOW = new Date('2026-11-20T12:00:00.000Z');

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

/** A claimed delivery at attempt `attempt` of a subscription failing since `failingForMs` (or not). */
async function claimedAt(attempt: number, failingForMs: number | null) {
  const { id: subscriptionId } = await h.subscription({ url: 'http://127.0.0.1:9/hook' });
  if (failingForMs !== null) {
    await h.prisma.subscription.update({
      where: { id: subscriptionId },
      data: { failingSince: new Date(NOW.getTime() - failingForMs) },
    });
  }
  const leadId = await h.lead();
  const activityId = await h.openActivity(leadId, 'started', new Date(NOW.getTime() - 60_000));
  await h.pool.query('SELECT webhook_fan_out($1, $2, 0)', [activityId, NOW]);
  const { id } = await h.prisma.delivery.findFirstOrThrow({ where: { activityId } });
  await h.prisma.delivery.update({
    where: { id },
    data: { attemptCount: attempt, nextAttemptAt: NOW },
  });
  const { rows } = await h.pool.query<{ claim: string }>(
    'SELECT claim FROM webhook_claim($1, $2, $3, 60000)',
    [id, attempt, NOW],
  );
  expect(rows[0]?.claim).toBe('claimed');
  return { id, subscriptionId };
}

describe('the retry policy, recorded', () => {
  it.each<{
    case: string;
    attempt: number;
    status: number;
    retryAfterMs?: number;
    failingForMs: number | null;
    outcome: string;
    disabled: string | null;
    retryInMs?: number;
  }>([
    {
      case: 'a 2xx succeeds',
      attempt: 0,
      status: 204,
      failingForMs: 2 * DAY,
      outcome: 'succeeded',
      disabled: null,
    },
    {
      case: 'a first failure retries after the second entry',
      attempt: 0,
      status: 500,
      failingForMs: null,
      outcome: 'retry',
      disabled: null,
      retryInMs: 5_000,
    },
    {
      case: 'a later failure retries after its entry',
      attempt: 3,
      status: 503,
      failingForMs: DAY,
      outcome: 'retry',
      disabled: null,
      retryInMs: 7_200_000,
    },
    {
      case: 'a longer Retry-After is honoured',
      attempt: 0,
      status: 429,
      retryAfterMs: 60_000,
      failingForMs: null,
      outcome: 'retry',
      disabled: null,
      retryInMs: 60_000,
    },
    {
      case: 'the last attempt fails the delivery',
      attempt: 7,
      status: 500,
      failingForMs: DAY,
      outcome: 'failed',
      disabled: null,
    },
    {
      case: 'a 410 disables the subscription',
      attempt: 0,
      status: 410,
      failingForMs: null,
      outcome: 'disabled',
      disabled: 'gone',
    },
    {
      case: 'failing for 4 days: a retry',
      attempt: 1,
      status: 500,
      failingForMs: 4 * DAY,
      outcome: 'retry',
      disabled: null,
      retryInMs: 300_000,
    },
    {
      case: 'failing for 5 days: disabled',
      attempt: 1,
      status: 500,
      failingForMs: 5 * DAY,
      outcome: 'disabled',
      disabled: 'failing',
    },
  ])('$case', async (row) => {
    const { id, subscriptionId } = await claimedAt(row.attempt, row.failingForMs);
    const ok = row.status < 300;
    const [answer] = await recordAttempts({ pool: h.pool, now: () => NOW, timeoutMs: 1000 }, [
      {
        delivery_id: id,
        attempt: row.attempt,
        attempt_id: newId('attempt'),
        attempted_at: NOW,
        ok,
        status_code: row.status,
        duration_ms: 12,
        error: null,
        response_body: '',
        retry_delay_ms: ok
          ? null
          : retryDelayMs(SCHEDULE, row.attempt, row.retryAfterMs, () => 0.5),
        continue: false,
      },
    ]);
    expect(answer?.outcome).toBe(row.outcome);
    expect(answer?.disabled_reason ?? null).toBe(row.disabled);
    expect(answer?.retry_at ?? null).toEqual(
      row.retryInMs === undefined ? null : new Date(NOW.getTime() + row.retryInMs),
    );
    const subscription = await h.prisma.subscription.findUniqueOrThrow({
      where: { id: subscriptionId },
    });
    expect(subscription.enabled).toBe(row.disabled === null);
  });
});
