import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { ensureBuilt, type ServiceName } from '../support.js';
import { LeadStream, Subscriber } from './load.js';
import { createFixture, type Fixture, Stack, sleep } from './stack.js';
import { CLEAN, findings, settle } from './verify.js';

/**
 * kill -9 of each process in turn while leads stream in at 100/s, each restarted
 * at once as a supervisor or orchestrator would: every 201 lead is enrolled
 * exactly once, every selected activity is delivered at least once under one
 * webhook-id, no step runs twice (issue 6).
 */

const RATE = 100;
/** Load around each kill: half before it, half after. */
const WINDOW_MS = 1500;
/** How long the pipeline may take to catch up afterwards. */
const SETTLE_MS = 600_000;

let db: TestDatabase;
let subscriber: Subscriber;
let stack: Stack;
let fixture: Fixture;

beforeAll(async () => {
  ensureBuilt();
  db = await createTestDatabase();
  subscriber = new Subscriber();
  await subscriber.start();
  stack = new Stack({
    databaseUrl: db.url,
    redisUrl: 'redis://127.0.0.1:6379',
    queuePrefix: `e2e-kill-${process.pid}-${Date.now()}`,
  });
  await stack.startAll();
  fixture = await createFixture(db.url, await stack.port('api'), subscriber.url);
}, 120_000);

afterAll(async () => {
  await stack?.dispose();
  await subscriber?.stop();
  await db?.drop();
}, 120_000);

it('loses nothing and runs nothing twice when each process is killed in turn under load', async () => {
  // Each process is killed in the middle of WINDOW_MS of load and restarted at
  // once; leads keep coming while it is down and while it starts again.
  const accepted: string[] = [];
  for (const name of ['intake', 'playbook-worker', 'webhook-worker', 'api'] as ServiceName[]) {
    const stream = new LeadStream({
      url: () => `${stack.intakeBase}${fixture.postPath}`,
      rate: RATE,
      tag: `kill-${name}`,
    });
    stream.start();
    await sleep(WINDOW_MS / 2);
    const killed = await stack.get(name).stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const restarted = stack.start(name);
    await sleep(WINDOW_MS / 2);
    await stream.stop();
    await restarted;
    expect(stream.achievedRate).toBeGreaterThanOrEqual(RATE - 1);
    if (name !== 'intake') expect(stream.tally()).toEqual({ 201: stream.count });
    accepted.push(...stream.accepted);
  }
  // The API came back by itself after its kill.
  expect((await fixture.api('/account')).status).toBe(200);

  try {
    await settle(db.url, subscriber, SETTLE_MS);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${stack.output()}`);
  }
  expect(await findings(db.url, accepted, subscriber)).toEqual(CLEAN);
}, 900_000);
