import type { ServiceName } from '../support.js';
import { Scenario } from './scenario.js';
import { sleep } from './stack.js';
import { CLEAN } from './verify.js';

/**
 * kill -9 of each process in turn while leads stream in at 100/s, each restarted
 * at once as a supervisor or orchestrator would: every 201 lead is enrolled
 * exactly once, every selected activity is delivered at least once under one
 * webhook-id, no step runs twice (issue 6).
 */

const RATE = 100;
/** Leads accepted before each kill: the work in flight when it lands. */
const IN_FLIGHT = 50;
/** Load after each kill, while the process is down and starts again. */
const AFTER_MS = 750;
/** How long the pipeline may take to catch up afterwards. */
const SETTLE_MS = 600_000;

let scenario: Scenario;

beforeAll(async () => {
  scenario = await Scenario.startOnTestDatabase('kill');
}, 300_000);

afterAll(async () => {
  await scenario?.close();
}, 120_000);

it('loses nothing and runs nothing twice when each process is killed in turn under load', async () => {
  // Each process is killed once IN_FLIGHT leads went through and restarted at
  // once; leads keep coming while it is down and while it starts again.
  const accepted: string[] = [];
  for (const name of ['intake', 'playbook-worker', 'webhook-worker', 'api'] as ServiceName[]) {
    const stream = scenario.stream(`kill-${name}`, RATE);
    stream.start();
    await stream.untilAccepted(IN_FLIGHT);
    const killed = await scenario.stack.get(name).stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const restarted = scenario.stack.start(name);
    await sleep(AFTER_MS);
    await stream.stop();
    await restarted;
    expect(stream.achievedRate).toBeGreaterThanOrEqual(RATE - 1);
    if (name !== 'intake') expect(stream.tally()).toEqual({ 201: stream.count });
    accepted.push(...stream.accepted);
  }
  // The API came back by itself after its kill.
  expect((await scenario.fixture.api('/account')).status).toBe(200);

  await scenario.settle(SETTLE_MS);
  expect(await scenario.findings(accepted)).toEqual(CLEAN);
}, 900_000);
