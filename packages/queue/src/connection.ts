import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/**
 * The one place every process makes its Redis clients (queues, workers, the rate
 * limiters, readiness): a single Redis from REDIS_URL, or a Redis Cluster from
 * REDIS_CLUSTER_NODES (docs/operations.md, "Scaling").
 */

/** A client of either kind: what BullMQ, rate-limiter-flexible and the readiness pings take. */
export type RedisClient = Redis | Cluster;

/** A Redis Cluster's startup nodes and the credentials and TLS every node shares (packages/config). */
export interface RedisClusterTarget {
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  readonly username: string | null;
  readonly password: string | null;
  readonly tls: boolean;
}

/**
 * Where Redis is: a URL (host, port, credentials, db number and TLS, which ioredis
 * parses), or a settings object as packages/config reads it, whose cluster, when
 * set, wins over the URL.
 */
export type RedisTarget =
  | string
  | { readonly redisUrl: string; readonly redisCluster?: RedisClusterTarget | null };

/**
 * Options of a producer's client: fail fast when Redis is away (the outbox covers
 * what could not be enqueued) instead of queueing commands in memory.
 */
const PRODUCER_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
};

/**
 * Options of a worker's client: BullMQ requires maxRetriesPerRequest null for
 * blocking commands; a worker waits for Redis to come back rather than failing.
 */
const WORKER_OPTIONS: RedisOptions = { maxRetriesPerRequest: null };

/** The cluster of `target`, or null for a single Redis. */
function clusterOf(target: RedisTarget): RedisClusterTarget | null {
  return typeof target === 'string' ? null : (target.redisCluster ?? null);
}

function urlOf(target: RedisTarget): string {
  return typeof target === 'string' ? target : target.redisUrl;
}

/**
 * A Cluster client: `nodeOptions` apply to each node's connection, with the
 * shared credentials and TLS. The Cluster's own offline queue follows the node
 * options (a producer fails at once while the cluster is unreachable). A command
 * for a slot whose master just died is retried by ioredis on the new owner
 * (MOVED, CLUSTERDOWN and TRYAGAIN answers, a slots refresh when a node is lost).
 */
function createCluster(cluster: RedisClusterTarget, nodeOptions: RedisOptions): Cluster {
  const options: ClusterOptions = {
    redisOptions: {
      ...nodeOptions,
      ...(cluster.username === null ? {} : { username: cluster.username }),
      ...(cluster.password === null ? {} : { password: cluster.password }),
      ...(cluster.tls ? { tls: {} } : {}),
    },
    ...(nodeOptions.enableOfflineQueue === false ? { enableOfflineQueue: false } : {}),
  };
  return new Cluster(
    cluster.nodes.map(({ host, port }) => ({ host, port })),
    options,
  );
}

function create(target: RedisTarget, options: RedisOptions): RedisClient {
  const cluster = clusterOf(target);
  const redis = cluster ? createCluster(cluster, options) : new Redis(urlOf(target), options);
  // Connection errors are reported by the callers that need Redis (readiness, the
  // limiter's fail-open, a Worker's own 'error' events); without a listener ioredis
  // would print each one.
  redis.on('error', () => {});
  return redis;
}

/**
 * The client of one BullMQ Worker: waits for Redis instead of failing. A client,
 * not the options object, because ioredis 6 allows a null retryStrategy where
 * BullMQ 6's ConnectionOptions type does not.
 */
export function createWorkerRedis(target: string): Redis;
export function createWorkerRedis(target: RedisTarget): RedisClient;
export function createWorkerRedis(target: RedisTarget): RedisClient {
  return create(target, WORKER_OPTIONS);
}

/** A plain client for producers and non-queue uses (rate limiting, readiness). Fails fast. */
export function createRedis(target: string): Redis;
export function createRedis(target: RedisTarget): RedisClient;
export function createRedis(target: RedisTarget): RedisClient {
  return create(target, PRODUCER_OPTIONS);
}

/** Whether `redis` is a Redis Cluster client. */
export function isCluster(redis: RedisClient): redis is Cluster {
  return redis instanceof Cluster;
}

/**
 * The BullMQ prefix of queue `queueName` (BullMQ names its keys
 * `<prefix>:<queue>:<suffix>`). On a single Redis it is QUEUE_PREFIX as is, so an
 * existing deployment keeps its keys. On a cluster every script of a queue must
 * find all its keys in one slot, so the prefix is a hash tag of its own per queue,
 * `{<QUEUE_PREFIX>:<queue>}`: each queue has one slot, and the queues spread over
 * the masters by those slots instead of sharing one. Braces in QUEUE_PREFIX (a
 * hash tag meant for one slot for every queue) are dropped there, since a tag
 * inside the tag would put every queue back in one slot.
 */
export function queueKeyPrefix(prefix: string, queueName: string, cluster: boolean): string {
  return cluster ? `{${prefix.replace(/[{}]/g, '')}:${queueName}}` : prefix;
}
