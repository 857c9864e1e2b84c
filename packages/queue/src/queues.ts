import { type JobsOptions, Queue } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * The job catalog: every queue, its payload (ids only: a processor reloads the
 * row) and its deterministic job id. BullMQ ignores an add whose job
 * id already exists, so a fact enqueued twice (fast path and outbox relay) is one
 * job while Redis holds it; consumers are idempotent for the rest.
 */
export const QUEUES = {
  /** Enroll an accepted lead in its source's playbook. */
  enrollment: {
    name: 'enrollment',
    jobId: (payload: { lead_id: string }) => `enroll-${payload.lead_id}`,
  },
  /** Fan an activity out to its subscriptions. */
  activity: {
    name: 'activity',
    jobId: (payload: { activity_id: string }) => `activity-${payload.activity_id}`,
  },
  /**
   * Run one step of a play. The enrollment row (current_step, next_run_at) is the
   * truth; the job is only the doorbell, re-enqueued by the playbook worker's
   * reconciler when Redis has forgotten it.
   */
  'playbook-step': {
    name: 'playbook-step',
    jobId: (payload: { enrollment_id: string; step: number }) =>
      `step-${payload.enrollment_id}-${payload.step}`,
  },
  /**
   * Try a webhook delivery (its attempt number `attempt` = the row's
   * attempt_count when enqueued). Only the head of a (subscription, lead) chain
   * is enqueued; each retry is a new delayed job with the next attempt number.
   * The webhook worker's reconciler re-enqueues what PostgreSQL says is due.
   */
  delivery: {
    name: 'delivery',
    jobId: (payload: { delivery_id: string; attempt: number }) =>
      `delivery-${payload.delivery_id}-${payload.attempt}`,
  },
} as const;

export interface JobPayloads {
  enrollment: { lead_id: string };
  activity: { activity_id: string };
  'playbook-step': { enrollment_id: string; step: number };
  delivery: { delivery_id: string; attempt: number };
}

export type Topic = keyof JobPayloads;

export function isTopic(value: string): value is Topic {
  return Object.hasOwn(QUEUES, value);
}

/**
 * The topics that have outbox rows (docs/operations.md, "Architecture"), each with the one
 * process whose relay sends them again: the process that consumes the topic's
 * queue. A relay anywhere else would only duplicate that work (two processes
 * claiming and re-checking the same rows), and a job it sent would still wait for
 * the consumer; so a lone intake's leads are enrolled once a playbook worker runs,
 * and an activity reaches its subscribers once a webhook worker runs, each from
 * PostgreSQL. `playbook-step` and `delivery` have no outbox rows: their workers'
 * reconcilers re-enqueue them from the rows themselves.
 */
export const OUTBOX_TOPICS = {
  enrollment: 'playbook-worker',
  activity: 'webhook-worker',
} as const satisfies Partial<Record<Topic, string>>;

export type OutboxTopic = keyof typeof OUTBOX_TOPICS;

/** Every outbox topic. */
export const OUTBOX_TOPIC_LIST = Object.keys(OUTBOX_TOPICS) as OutboxTopic[];

/** A process that relays outbox rows: the consumer of one or more outbox topics. */
export type RelayingProcess = (typeof OUTBOX_TOPICS)[OutboxTopic];

/** The outbox topics the relay of `process` sends. */
export function outboxTopicsRelayedBy(process: RelayingProcess): OutboxTopic[] {
  return OUTBOX_TOPIC_LIST.filter((topic) => OUTBOX_TOPICS[topic] === process);
}

/** Completed/failed jobs Redis keeps: the rows in PostgreSQL are the history. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  removeOnComplete: { count: 1000, age: 3600 },
  removeOnFail: { count: 5000, age: 7 * 86400 },
};

/**
 * Options of a producer's client: fail fast when Redis is away (the outbox covers
 * what could not be enqueued) instead of queueing commands in memory. Host, port,
 * credentials, db number and TLS (rediss://) come from the URL, which ioredis
 * parses.
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

/**
 * The client of one BullMQ Worker: waits for Redis instead of failing. A client,
 * not the options object, because ioredis 6 allows a null retryStrategy where
 * BullMQ 6's ConnectionOptions type does not. Errors are reported by the Worker's
 * own 'error' events and /readyz.
 */
export function createWorkerRedis(redisUrl: string): Redis {
  const redis = new Redis(redisUrl, WORKER_OPTIONS);
  redis.on('error', () => {});
  return redis;
}

/** A plain client for non-queue uses (rate limiting, readiness). Fails fast. */
export function createRedis(redisUrl: string): Redis {
  const redis = new Redis(redisUrl, PRODUCER_OPTIONS);
  // Connection errors are reported by the callers that need Redis (readiness, the
  // limiter's fail-open); without a listener ioredis would print each one.
  redis.on('error', () => {});
  return redis;
}

function jobIdOf<T extends Topic>(topic: T, payload: JobPayloads[T]): string {
  return (QUEUES[topic].jobId as (p: JobPayloads[T]) => string)(payload);
}

export interface QueueSetOptions {
  /** The Redis URL producers connect to. */
  redisUrl: string;
  /** Key prefix; a hash tag ("{leadhook}") keeps a queue's keys in one Redis Cluster slot. */
  prefix: string;
  /** An enqueue that has not been acknowledged by then fails (the outbox covers it). */
  enqueueTimeoutMs?: number;
}

/** What requeueMany did: jobs added, and jobs left alone because Redis still holds them pending. */
export interface RequeueResult {
  sent: number;
  pending: number;
}

/** Thrown by enqueue when Redis cannot take the job now. */
export class QueueUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUnavailableError';
  }
}

/**
 * Producers for every queue of the catalog, created on first use, sharing one
 * fail-fast connection. An enqueue never waits for Redis to come back: callers
 * hold a committed outbox row, and the relay sends it later.
 */
export class QueueSet {
  private readonly queues = new Map<Topic, Queue>();
  readonly redis: Redis;

  constructor(private readonly options: QueueSetOptions) {
    this.redis = createRedis(options.redisUrl);
  }

  get(topic: Topic): Queue {
    let queue = this.queues.get(topic);
    if (!queue) {
      queue = new Queue(QUEUES[topic].name, {
        connection: this.redis,
        prefix: this.options.prefix,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      queue.on('error', () => {
        // Reported by the enqueue that failed; the outbox relay retries it.
      });
      this.queues.set(topic, queue);
    }
    return queue;
  }

  /** Enqueues a job with its deterministic id. Rejects at once when Redis is unreachable. */
  async enqueue<T extends Topic>(topic: T, payload: JobPayloads[T], delayMs = 0): Promise<void> {
    this.assertReady();
    const add = this.get(topic).add(topic, payload, {
      jobId: jobIdOf(topic, payload),
      ...(delayMs > 0 ? { delay: delayMs } : {}),
    });
    await this.withTimeout(add);
  }

  /**
   * Enqueues many jobs of one topic in one round trip (BullMQ addBulk, a MULTI),
   * each with its deterministic id. All or nothing as far as the caller knows: on
   * a rejection the outbox relay sends whatever did not get through.
   */
  async enqueueMany<T extends Topic>(topic: T, payloads: readonly JobPayloads[T][]): Promise<void> {
    if (payloads.length === 0) return;
    this.assertReady();
    const add = this.get(topic).addBulk(
      payloads.map((payload) => ({
        name: topic,
        data: payload,
        opts: { jobId: jobIdOf(topic, payload) },
      })),
    );
    await this.withTimeout(add);
  }

  /**
   * Sends again the jobs of facts still open (the outbox relay), in one Redis round
   * trip when every job is still pending, two when some must be added (plus a
   * remove per finished job, rare):
   * - a job Redis holds as waiting, delayed, prioritized or running is left as it
   *   is (BullMQ would ignore the add of an existing id anyway): a backlog is not
   *   sent again while it waits for its consumer;
   * - a job Redis keeps as completed or failed under the same id (its consumer
   *   threw, e.g. while PostgreSQL was away) is removed first, or BullMQ would
   *   ignore the add and the fact would wait until Redis dropped that job (days);
   * - a job Redis does not hold (restarted empty, or trimmed) is added.
   * One pipeline reads, per job, whether its hash exists and whether it is in the
   * completed or failed set: O(1) each. (BullMQ's getJobState looks for a waiting
   * job with LPOS over the whole wait list: O(backlog) per job, exactly when the
   * backlog is long.) Rejects at once when Redis is unreachable.
   */
  async requeueMany<T extends Topic>(
    topic: T,
    payloads: readonly JobPayloads[T][],
  ): Promise<RequeueResult> {
    if (payloads.length === 0) return { sent: 0, pending: 0 };
    this.assertReady();
    const queue = this.get(topic);
    const jobIds = payloads.map((payload) => jobIdOf(topic, payload));
    const completedKey = queue.toKey('completed');
    const failedKey = queue.toKey('failed');
    const pipeline = this.redis.pipeline();
    for (const jobId of jobIds) {
      pipeline.exists(queue.toKey(jobId)); // the job's hash: BullMQ's own "already added" test
      pipeline.zscore(completedKey, jobId);
      pipeline.zscore(failedKey, jobId);
    }
    const replies = (await this.withTimeout(pipeline.exec())) ?? [];
    const reply = (n: number): unknown => {
      const [err, value] = replies[n] ?? [new QueueUnavailableError('redis gave no reply')];
      if (err) throw err;
      return value;
    };
    const toSend: number[] = [];
    const finished: string[] = [];
    jobIds.forEach((jobId, i) => {
      if (reply(3 * i + 1) !== null || reply(3 * i + 2) !== null) {
        finished.push(jobId);
        toSend.push(i);
      } else if (reply(3 * i) === 0) {
        toSend.push(i);
      }
    });
    if (finished.length > 0) {
      await this.withTimeout(Promise.all(finished.map((jobId) => queue.remove(jobId))));
    }
    if (toSend.length > 0) {
      const add = queue.addBulk(
        toSend.map((i) => ({
          name: topic,
          data: payloads[i] as JobPayloads[T],
          opts: { jobId: jobIds[i] as string },
        })),
      );
      await this.withTimeout(add);
    }
    return { sent: toSend.length, pending: payloads.length - toSend.length };
  }

  private assertReady(): void {
    if (this.redis.status !== 'ready') {
      throw new QueueUnavailableError(`redis is ${this.redis.status}`);
    }
  }

  private async withTimeout<R>(call: Promise<R>): Promise<R> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new QueueUnavailableError('enqueue timed out')),
        this.options.enqueueTimeoutMs ?? 2000,
      );
    });
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => {})));
    this.queues.clear();
    this.redis.disconnect();
  }
}
