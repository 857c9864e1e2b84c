import { Scenario } from './scenario.js';
import { sleep } from './stack.js';
import { CLEAN } from './verify.js';

/**
 * Two copies of each worker against the same Redis and PostgreSQL while leads
 * stream in: no duplicate enrollment, step, delivery row or attempt (issue 6).
 * (A webhook may still arrive twice: a send whose attempt could not be recorded,
 * e.g. a transaction that timed out on a busy machine, is sent again.)
 */

const RATE = 100;
const LOAD_MS = 3000;
const SETTLE_MS = 600_000;

let scenario: Scenario;

beforeAll(async () => {
  scenario = await Scenario.startOnTestDatabase('copies', { workerCopies: 2 });
}, 420_000);

afterAll(async () => {
  await scenario?.close();
}, 120_000);

it('runs each enrollment, step, delivery and attempt once with two copies of each worker', async () => {
  const stream = scenario.stream('copies', RATE);
  stream.start();
  await sleep(LOAD_MS);
  await stream.stop();
  expect(stream.tally()).toEqual({ 201: stream.count });

  await scenario.settle(SETTLE_MS);
  expect(await scenario.findings(stream.accepted)).toEqual(CLEAN);
  // Both copies of each worker did work: the test ran what it claims. Every
  // series exists at 0 from the start, so the count must be above 0.
  for (const name of ['playbook-worker', 'webhook-worker'] as const) {
    for (const copy of scenario.stack.copies.get(name) ?? []) {
      const metrics = await (await fetch(`http://127.0.0.1:${copy.operatorPort}/metrics`)).text();
      const counter =
        name === 'playbook-worker'
          ? /^leadhook_playbook_steps_total\{[^}]*result="(delivered|voicemail)"[^}]*\} [1-9]\d*$/m
          : /^leadhook_webhook_deliveries_total\{[^}]*result="succeeded"[^}]*\} [1-9]\d*$/m;
      expect(metrics).toMatch(counter);
    }
  }
}, 900_000);
