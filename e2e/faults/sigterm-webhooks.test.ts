import { createPool } from '@leadhook/db';
import { waitFor } from '../support.js';
import { Scenario } from './scenario.js';
import { SHUTDOWN_TIMEOUT_MS } from './stack.js';
import { CLEAN } from './verify.js';

/**
 * SIGTERM of the webhook worker while its attempts wait on a subscriber that does
 * not answer (issue 6; sigterm.test.ts's subscriber answers at once). The
 * attempt's timeout is longer than the process's bound, as with the defaults
 * (WEBHOOK_TIMEOUT_MS 15 s, SHUTDOWN_TIMEOUT_MS 10 s), so the attempts cannot end
 * by themselves in time: the worker exits 0 within SHUTDOWN_TIMEOUT_MS all the
 * same, handing them back at its drain deadline (no attempt row for the
 * interrupted tries, no lease left to lapse), and the next worker delivers every
 * one under its original webhook-id.
 */

const RATE = 20;
const SETTLE_MS = 120_000;
/** Process exit and the test's own event loop on a busy machine, beyond the bound. */
const EXIT_SLACK_MS = 1500;
/** Four times the bound: an attempt in flight at the stop would outlast it by far. */
const WEBHOOK_TIMEOUT_MS = 4 * SHUTDOWN_TIMEOUT_MS;

let scenario: Scenario;

beforeAll(async () => {
  scenario = await Scenario.startOnTestDatabase('sigterm-webhooks', {
    env: { WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS) },
  });
}, 300_000);

afterAll(async () => {
  await scenario?.close();
}, 120_000);

/** Attempt rows, and pending deliveries still leased, as PostgreSQL has them now. */
async function attemptsAndLeases(databaseUrl: string) {
  const pool = createPool({ databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ attempts: number; leased: number }>(
      `SELECT (SELECT count(*) FROM attempts)::int AS attempts,
              (SELECT count(*) FROM deliveries
                WHERE status = 'pending' AND claimed_until IS NOT NULL)::int AS leased`,
    );
    return rows[0];
  } finally {
    await pool.end();
  }
}

it('the webhook worker stops within SHUTDOWN_TIMEOUT_MS with attempts in flight to a subscriber that does not answer, and nothing is lost', async () => {
  const { stack, subscriber } = scenario;
  const databaseUrl = stack.options.databaseUrl;
  subscriber.answering = false;
  const stream = scenario.stream('hang', RATE);
  stream.start();
  // Each lead's first webhook holds its chain: in flight, unanswered.
  await waitFor(async () => (subscriber.unanswered.length >= 10 ? true : undefined), 60_000);

  const proc = stack.get('webhook-worker');
  const started = Date.now();
  const { code } = await proc.stop('SIGTERM');
  const ms = Date.now() - started;
  await stream.stop();
  if (code !== 0) throw new Error(`webhook-worker exited ${code}:\n${proc.output()}`);
  expect(ms).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS + EXIT_SLACK_MS);
  expect(stream.tally()).toEqual({ 201: stream.count });
  // Handed back: no attempt recorded for an interrupted try (none of them had
  // their timeout), and no delivery waits for a lease to lapse.
  expect(await attemptsAndLeases(databaseUrl)).toEqual({ attempts: 0, leased: 0 });
  const interrupted = new Set(subscriber.unanswered.map((r) => r.webhookId));

  subscriber.answering = true;
  await stack.start('webhook-worker');
  await scenario.settle(SETTLE_MS);
  // Every selected activity received (answered), each delivery with one attempt
  // row, its 2xx, and its webhook-id the activity's: the interrupted ones too.
  expect(await scenario.findings(stream.accepted)).toEqual(CLEAN);
  const received = subscriber.counts();
  expect([...interrupted].filter((id) => !received.has(id))).toEqual([]);
}, 300_000);
