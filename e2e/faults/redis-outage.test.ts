import { freePort, PrivateRedis } from '@leadhook/testkit';
import { Scenario } from './scenario.js';
import { sleep } from './stack.js';
import { CLEAN } from './verify.js';

/**
 * Redis (a private one: the machine's is shared) killed for 30 s while leads
 * stream in, then started empty, as an operator's Redis without persistence
 * comes back: intake keeps answering 201 throughout, and enrollments, steps and
 * deliveries catch up from PostgreSQL (outbox relay and reconcilers) with no
 * process restarted (issue 6).
 */

/** Leads per second before, during and after the outage (issue 6: the same load as the kill test). */
const RATE = 100;
const OUTAGE_MS = 30_000;
const SETTLE_MS = 600_000;

let redis: PrivateRedis;
let scenario: Scenario;

beforeAll(async () => {
  redis = new PrivateRedis(await freePort());
  await redis.start();
  scenario = await Scenario.startOnTestDatabase('redis', { redisUrl: redis.url });
}, 300_000);

afterAll(async () => {
  // The private Redis goes with its keys.
  await scenario?.close(false);
  await redis?.stop();
}, 120_000);

it('answers 201 while Redis is away and catches up from PostgreSQL once it is back empty', async () => {
  const { stack } = scenario;
  const stream = scenario.stream('redis', RATE);
  stream.start();
  await sleep(1000);
  await redis.stop();
  const stoppedAt = Date.now();
  await sleep(3000);
  // Intake stays ready (it accepts leads without Redis, so an orchestrator must
  // keep routing sellers to it) and names Redis as unavailable in /readyz.
  const ready = await fetch(`${stack.intakeInternalBase}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({ checks: { redis: 'unavailable' } });
  await sleep(OUTAGE_MS - 3000);
  await redis.start();
  const restartedAt = Date.now();
  await sleep(1000);
  await stream.stop();

  // Every lead of the outage was accepted (the rate limiter fails open too).
  const during = stream.tallyBetween(stoppedAt, restartedAt);
  expect(Object.keys(during)).toEqual(['201']);
  // The stream kept its rate (it sends on a clock, not after each answer).
  expect(during['201']).toBeGreaterThanOrEqual((RATE * OUTAGE_MS * 0.9) / 1000);
  expect(stream.tally()).toEqual({ 201: stream.count });
  // No process was restarted: they reconnect by themselves.
  for (const proc of stack.copies.values()) expect(proc.every((p) => p.running())).toBe(true);

  await scenario.settle(SETTLE_MS);
  expect(await scenario.findings(stream.accepted)).toEqual(CLEAN);
}, 900_000);
