import { randomBytes } from 'node:crypto';
import { type JobPayloads, type JobTopic, jobPayloadProblem } from '@leadhook/contracts';
import { type Job, type JobsOptions, type JobType, Queue, UnrecoverableError } from 'bullmq';
import {
  createRedis,
  isCluster,
  queueKeyPrefix,
  type RedisClient,
  type RedisClusterTarget,
} from './connection.js';

export type { JobPayloads } from '@leadhook/contracts';

/**
 * The job catalog: every queue, its payload (ids only: a processor reloads the
 * row) and the key of the work item a job stands for. The key is the job's
 * BullMQ deduplication id: while a job for a work item is waiting, delayed or
 * running, an add for the same item is ignored; once that job has completed or
 * failed, a new one may be added (PostgreSQL says whether the work is still
 * due). So a fact enqueued twice (fast path and outbox relay, or a reconciler)
 * is one live job; consumers are idempotent for the rest.
 */
export const QUEUES = {
  /** Enroll an accepted lead in its source's playbook. */
  enrollment: {
    name: 'enrollment',
    key: (payload: JobPayloads['enrollment']) => `enroll-${payload.lead_id}`,
  },
  /** Fan an activity out to its subscriptions. */
  activity: {
    name: 'activity',
    key: (payload: JobPayloads['activity']) => `activity-${payload.activity_id}`,
  },
  /**
   * Run one step of a play. The enrollment row (current_step, next_run_at) is the
   * truth; the job is only the doorbell, re-enqueued by the playbook worker's
   * reconciler when Redis has forgotten it.
   */
  'playbook-step': {
    name: 'playbook-step',
    key: (payload: JobPayloads['playbook-step']) => `step-${payload.enrollment_id}-${payload.step}`,
  },
  /**
   * Try a webhook delivery (its attempt number `attempt` = the row's
   * attempt_count when enqueued). Only the head of a (subscription, lead) chain
   * is enqueued; each retry is a new delayed job with the next attempt number.
   * The webhook worker's reconciler re-enqueues what PostgreSQL says is due.
   */
  delivery: {
    name: 'delivery',
    key: (payload: JobPayloads['delivery']) => `delivery-${payload.delivery_id}-${payload.attempt}`,
  },
} as const;

/** The queues of the catalog. */
export type Topic = JobTopic;

/**
 * The payload of a job being consumed, checked against its topic's schema
 * (packages/contracts). A payload that does not match fails the job for good
 * (UnrecoverableError: no retry would fix it); the error names the rule broken,
 * never a value, so the worker's failure log carries no personal data.
 */
export function payloadOf<T extends Topic>(topic: T, job: { data: unknown }): JobPayloads[T] {
  const problem = jobPayloadProblem(topic, job.data);
  if (problem !== undefined) {
    throw new UnrecoverableError(`invalid ${topic} job payload: ${problem}`);
  }
  return job.data as JobPayloads[T];
}

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

/** The key of the work item `payload` stands for: its jobs' deduplication id. */
export function workKey<T extends Topic>(topic: T, payload: JobPayloads[T]): string {
  return (QUEUES[topic].key as (p: JobPayloads[T]) => string)(payload);
}

/**
 * The options of one add: the work item's key as deduplication id, and a job id
 * that starts with it (readable in Redis) and is new at each add, since BullMQ
 * ignores an add whose job id it still keeps, finished or not. Deduplication
 * without a ttl: the key is released when the job completes or fails, so a
 * finished job never blocks a new one for the same item.
 */
export function jobOptions<T extends Topic>(
  topic: T,
  payload: JobPayloads[T],
  delayMs = 0,
): JobsOptions & { jobId: string } {
  const key = workKey(topic, payload);
  return {
    jobId: `${key}-${randomBytes(6).toString('base64url')}`,
    deduplication: { id: key },
    ...(delayMs > 0 ? { delay: delayMs } : {}),
  };
}

/** The job Redis holds waiting, delayed or running for the work item of `payload`, if any. */
export async function liveJob<T extends Topic>(
  queue: Queue,
  topic: T,
  payload: JobPayloads[T],
): Promise<Job | undefined> {
  const jobId = await queue.getDeduplicationJobId(workKey(topic, payload));
  return jobId ? await queue.getJob(jobId) : undefined;
}

/**
 * Every job Redis keeps for the work item of `payload`, live or finished, newest
 * first. It reads the whole of each state's list: for inspection (tests, an
 * operator), not for a hot path.
 */
export async function jobsOf<T extends Topic>(
  queue: Queue,
  topic: T,
  payload: JobPayloads[T],
  states: JobType[] = ['active', 'waiting', 'prioritized', 'delayed', 'completed', 'failed'],
): Promise<Job[]> {
  const key = workKey(topic, payload);
  const jobs = await queue.getJobs(states);
  return jobs
    .filter((job) => job.deduplicationId === key)
    .sort((a, b) => b.timestamp - a.timestamp);
}

export interface QueueSetOptions {
  /** The Redis URL producers connect to, unless redisCluster is set. */
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: a Redis Cluster, which replaces redisUrl. */
  redisCluster?: RedisClusterTarget | null;
  /** QUEUE_PREFIX; on a cluster each queue gets a hash tag of its own (queueKeyPrefix). */
  prefix: string;
  /** An enqueue that has not been acknowledged by then fails (the outbox covers it). */
  enqueueTimeoutMs?: number;
}

/** What requeueMany did: jobs added, and jobs left alone because their work item has a live job. */
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
  readonly redis: RedisClient;

  constructor(private readonly options: QueueSetOptions) {
    this.redis = createRedis(options);
  }

  /**
   * The BullMQ prefix of `topic`'s queue on this Redis: what a Worker of the
   * queue must be given, as QUEUE_PREFIX alone is not on a cluster.
   */
  prefixOf(topic: Topic): string {
    return queueKeyPrefix(this.options.prefix, QUEUES[topic].name, isCluster(this.redis));
  }

  get(topic: Topic): Queue {
    let queue = this.queues.get(topic);
    if (!queue) {
      queue = new Queue(QUEUES[topic].name, {
        connection: this.redis,
        prefix: this.prefixOf(topic),
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      queue.on('error', () => {
        // Reported by the enqueue that failed; the outbox relay retries it.
      });
      this.queues.set(topic, queue);
    }
    return queue;
  }

  /**
   * Enqueues a job for the work item of `payload` unless one is live (jobOptions).
   * Rejects at once when Redis is unreachable.
   */
  async enqueue<T extends Topic>(topic: T, payload: JobPayloads[T], delayMs = 0): Promise<void> {
    this.assertReady();
    await this.withTimeout(
      this.get(topic).add(topic, payload, jobOptions(topic, payload, delayMs)),
    );
  }

  /**
   * Enqueues many jobs of one topic in one round trip (BullMQ addBulk, a
   * pipeline), each unless its work item has a live job. All or nothing as far as
   * the caller knows: on a rejection the outbox relay sends whatever did not get
   * through.
   */
  async enqueueMany<T extends Topic>(topic: T, payloads: readonly JobPayloads[T][]): Promise<void> {
    await this.requeueMany(topic, payloads);
  }

  /**
   * Sends again the jobs of facts still open (the outbox relay, a reconciler) in
   * one Redis round trip (addBulk): BullMQ's deduplication leaves alone a work item
   * whose job is waiting, delayed or running (a backlog is not sent again while it
   * waits for its consumer), and adds one whose job completed or failed (its
   * consumer threw, e.g. while PostgreSQL was away) or that Redis does not hold
   * (restarted empty, or trimmed). An add BullMQ deduplicated answers with the
   * live job's id instead of the new one: that is how `pending` is counted.
   * Rejects at once when Redis is unreachable.
   */
  async requeueMany<T extends Topic>(
    topic: T,
    payloads: readonly JobPayloads[T][],
  ): Promise<RequeueResult> {
    return await this.addMany(
      topic,
      payloads.map((payload) => ({ payload })),
    );
  }

  /**
   * requeueMany, each job with its own delay (ms from now; none or 0: at once):
   * e.g. the attempts a fan-out or a reconciler finds due at different times.
   */
  async addMany<T extends Topic>(
    topic: T,
    items: readonly { payload: JobPayloads[T]; delayMs?: number }[],
  ): Promise<RequeueResult> {
    if (items.length === 0) return { sent: 0, pending: 0 };
    this.assertReady();
    const jobs = items.map(({ payload, delayMs }) => ({
      name: topic,
      data: payload,
      opts: jobOptions(topic, payload, delayMs),
    }));
    const added = await this.withTimeout(this.get(topic).addBulk(jobs));
    const sent = added.filter((job, i) => job.id === jobs[i]?.opts.jobId).length;
    return { sent, pending: items.length - sent };
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
