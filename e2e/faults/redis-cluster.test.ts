import { QUEUES, queueKeyPrefix } from '@leadhook/queue';
import { closedPort } from '@leadhook/testkit';
import { PrivateRedisCluster } from './private-cluster.js';
import { Scenario } from './scenario.js';
import { sleep } from './stack.js';
import { CLEAN } from './verify.js';

/**
 * Every process on a Redis Cluster of 3 masters and 3 replicas
 * (REDIS_CLUSTER_NODES; REDIS_URL points nowhere): leads go from intake to the
 * subscriber through it, each queue's keys on one master and the queues on more
 * than one master; then a master is SIGKILLed while leads stream in. Its replica
 * takes over, intake answers 201 to every lead, and every enrollment, step and
 * delivery happens exactly once, as after a Redis outage (redis-outage.test.ts):
 * PostgreSQL is the truth, the outbox relay and the reconcilers send what the
 * dead master held.
 */

const RATE = 20;
/** Load after the kill: through the failover (node timeout 2 s) and past it. */
const AFTER_KILL_MS = 6000;
const SETTLE_MS = 300_000;
/** A private cluster: the deployment's own prefix, whose queues' slots are known. */
const PREFIX = 'leadhook';

let cluster: PrivateRedisCluster;
let scenario: Scenario;

beforeAll(async () => {
  cluster = new PrivateRedisCluster();
  try {
    await cluster.start();
    scenario = await Scenario.startOnTestDatabase('cluster', {
      // Nothing answers here: every client must go to the cluster.
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      env: {
        REDIS_CLUSTER_NODES: cluster.nodesSetting,
        QUEUE_PREFIX: PREFIX,
        // The limiter on, high enough never to refuse: its counters live on the cluster.
        INTAKE_RATE_LIMIT_PER_SOURCE: '10000',
        RECONCILE_INTERVAL_MS: '1000',
      },
    });
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}, 120_000);

afterAll(async () => {
  // The processes first (they hold the cluster's connections), then every redis-server.
  await scenario?.close(false);
  await cluster?.stop();
}, 120_000);

/** The port of the master holding each queue's keys (every key of a queue on one master). */
async function queueMasters(): Promise<Map<string, number>> {
  const masters = new Map<string, number>();
  for (const { name } of Object.values(QUEUES)) {
    const prefix = queueKeyPrefix(PREFIX, name, true);
    masters.set(name, await cluster.masterOfSlot(await cluster.slotOf(prefix)));
  }
  return masters;
}

it('runs leads to webhooks on a cluster and loses or repeats nothing when a master fails over', async () => {
  const { stack } = scenario;
  const before = scenario.stream('cluster-before', RATE);
  before.start();
  await before.untilAccepted(RATE);
  await before.stop();
  await scenario.settle(SETTLE_MS);

  // Each queue's keys are on its own slot's master and nowhere else, and the
  // queues are not all on one master.
  const masters = await queueMasters();
  const topology = await cluster.topology();
  for (const [name, port] of masters) {
    const pattern = `${queueKeyPrefix(PREFIX, name, true)}:${name}:*`;
    for (const node of topology.filter((n) => n.role === 'master' && !n.failed)) {
      const keys = await cluster.keysOn(node.port, pattern);
      if (node.port === port) expect(keys.length).toBeGreaterThan(0);
      else expect(keys).toEqual([]);
    }
  }
  expect(new Set(masters.values()).size).toBeGreaterThan(1);
  // The intake limiter was on and counted every lead on the cluster: it would
  // have logged each Redis failure (a CROSSSLOT, a connection refused) and let
  // the lead through.
  expect(stack.get('intake').output()).not.toContain('rate limiter unavailable');

  // Kill the master that holds the most queues, under load.
  const byMaster = new Map<number, number>();
  for (const port of masters.values()) byMaster.set(port, (byMaster.get(port) ?? 0) + 1);
  const [victim] = [...byMaster.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (victim === undefined) throw new Error('no queue master');
  const victimId = topology.find((n) => n.port === victim)?.id;
  const replica = topology.find((n) => n.masterId === victimId);
  if (!replica) throw new Error(`master ${victim} has no replica`);

  const during = scenario.stream('cluster-failover', RATE);
  during.start();
  await during.untilAccepted(RATE);
  await cluster.kill(victim);
  await sleep(AFTER_KILL_MS);
  await during.stop();

  // The replica took the dead master's slots; the cluster is whole again.
  await cluster.waitUntilOk();
  const promoted = (await cluster.topology()).find((n) => n.port === replica.port);
  expect(promoted).toMatchObject({ role: 'master', failed: false });
  expect(promoted?.slots.length).toBeGreaterThan(0);

  // Intake answered 201 to every lead, through the failover.
  expect(during.tally()).toEqual({ 201: during.count });
  // No process was restarted: they follow the cluster by themselves.
  for (const proc of stack.copies.values()) expect(proc.every((p) => p.running())).toBe(true);

  await scenario.settle(SETTLE_MS);
  expect(await scenario.findings([...before.accepted, ...during.accepted])).toEqual(CLEAN);
}, 600_000);
