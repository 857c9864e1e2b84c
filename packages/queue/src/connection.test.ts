import { Cluster, Redis } from 'ioredis';
import { createRedis, createWorkerRedis, isCluster, queueKeyPrefix } from './connection.js';
import { QueueSet } from './queues.js';

const CLUSTER = {
  nodes: [
    { host: '10.0.0.1', port: 7000 },
    { host: '10.0.0.2', port: 7001 },
  ],
  username: 'app',
  password: 'secret',
  tls: true,
};

/** Clients that never connect: the options are what is checked. */
const closedUrl = 'redis://127.0.0.1:1';

describe('Redis clients from the settings', () => {
  it('are a single Redis from the URL when no cluster is set (REDIS_URL)', () => {
    const redis = createRedis({ redisUrl: closedUrl, redisCluster: null });
    try {
      expect(redis).toBeInstanceOf(Redis);
      expect(isCluster(redis)).toBe(false);
    } finally {
      redis.disconnect();
    }
  });

  it('are a Cluster when REDIS_CLUSTER_NODES is set, the URL ignored, every node with the shared credentials and TLS', () => {
    const producer = createRedis({ redisUrl: closedUrl, redisCluster: CLUSTER });
    const worker = createWorkerRedis({ redisUrl: closedUrl, redisCluster: CLUSTER });
    try {
      expect(producer).toBeInstanceOf(Cluster);
      expect(worker).toBeInstanceOf(Cluster);
      const producerCluster = producer as Cluster;
      const workerCluster = worker as Cluster;
      // startupNodes is private in ioredis's types: read as the plain object it is.
      expect((producerCluster as unknown as { startupNodes: unknown }).startupNodes).toEqual(
        CLUSTER.nodes,
      );
      // A producer fails fast (the outbox covers it), on the cluster and on each node...
      expect(producerCluster.options).toMatchObject({
        enableOfflineQueue: false,
        redisOptions: {
          username: 'app',
          password: 'secret',
          tls: {},
          maxRetriesPerRequest: 1,
          connectTimeout: 2000,
        },
      });
      // ...a worker waits for Redis, as BullMQ's blocking commands require.
      expect(workerCluster.options.enableOfflineQueue).toBe(true);
      expect(workerCluster.options.redisOptions).toMatchObject({
        password: 'secret',
        maxRetriesPerRequest: null,
      });
    } finally {
      producer.disconnect();
      worker.disconnect();
    }
  });
});

describe('queueKeyPrefix', () => {
  it('is QUEUE_PREFIX unchanged on a single Redis: existing deployments keep their keys', () => {
    expect(queueKeyPrefix('leadhook', 'enrollment', false)).toBe('leadhook');
    expect(queueKeyPrefix('{leadhook}', 'delivery', false)).toBe('{leadhook}');
  });

  it('is a hash tag of its own per queue on a cluster, braces of QUEUE_PREFIX dropped', () => {
    expect(queueKeyPrefix('leadhook', 'enrollment', true)).toBe('{leadhook:enrollment}');
    expect(queueKeyPrefix('{leadhook}', 'playbook-step', true)).toBe('{leadhook:playbook-step}');
  });

  it("is what a QueueSet's queues and its workers use", async () => {
    const single = new QueueSet({ redisUrl: closedUrl, prefix: 'lh' });
    const cluster = new QueueSet({ redisUrl: closedUrl, redisCluster: CLUSTER, prefix: 'lh' });
    // Disconnected before it tries a node: no attempt outlives the test.
    single.redis.disconnect();
    cluster.redis.disconnect();
    const closing = Promise.all([single.close(), cluster.close()]);
    expect(single.prefixOf('activity')).toBe('lh');
    expect(cluster.prefixOf('activity')).toBe('{lh:activity}');
    expect(cluster.prefixOf('delivery')).toBe('{lh:delivery}');
    await closing;
  });
});
