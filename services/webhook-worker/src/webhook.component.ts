import { setMaxListeners } from 'node:events';
import {
  createPool,
  isDatabaseUnavailable,
  isTransactionRollback,
  MicroBatcher,
  type Pool,
} from '@leadhook/db';
import { createWorkerRedis, PeriodicTask, payloadOf, type RedisClient } from '@leadhook/queue';
import type { Resolve } from '@leadhook/webhooks';
import {
  logQueueWorkerEvents,
  type WorkerComponent,
  type WorkerContext,
} from '@leadhook/worker-runtime';
import { Worker } from 'bullmq';
import { Counter, Histogram } from 'prom-client';
import { CHAIN_RUN_MS } from './delivery/chain.runner.js';
import { type DeliveryJobData, deliveryProcessor } from './delivery/delivery.job.js';
import { leaseMs, recordAttempts } from './delivery/delivery.queries.js';
import { registerDisabledSubscriptionsGauge } from './disabled-subscriptions.metrics.js';
import { CLAIM_PER_FAN_OUT, fanOut } from './fanout.job.js';
import { fanOutMany } from './fanout.queries.js';
import { reconcileOnce } from './reconciler.js';
import { SendSlots } from './send-slots.js';
import { SubscriptionCap } from './subscription-cap.js';
import type { WebhookDeps } from './webhook.deps.js';
import { zeroWebhookMetrics } from './webhook.metrics.js';

export interface WebhookComponentOptions {
  now?: () => Date;
  /** The retry jitter's source, in [0, 1). */
  random?: () => number;
  /** Name resolution for the SSRF guard (tests). */
  resolve?: Resolve;
  /** How often the reconciler looks for due chain heads (ms). Default RECONCILE_INTERVAL_MS. */
  reconcileIntervalMs?: number;
  /**
   * Jobs each BullMQ worker runs at once (both queues; tests). Default:
   * WEBHOOK_FANOUT_CONCURRENCY (48) fan-outs and WEBHOOK_DELIVERY_CONCURRENCY (96) delivery jobs (each one goes on down its chain, so 96 chains are sent
   * to at once; a subscriber gets at most one request per lead at a time).
   *
   * A delivery job holds no database connection while its attempt is in
   * flight: the number is how many chains from the queue wait on subscribers at
   * once (beside those the fan-outs claimed, in the send slots, which stay busy
   * while fan-outs run). Fewer left the machine partly idle once the fan-outs ran
   * ahead of the sends; 96 sent more, and its larger record batches cost
   * PostgreSQL less per delivery (bench/RESULTS.md, "Reading the runs of
   * 06:48–08:12").
   *
   * Fan-out jobs spend most of their time outside their batch's transaction
   * (BullMQ's fetch and finish of the job, the enqueue of its heads): with 16 of
   * them, batches (FAN_OUT_BATCHING) stayed half empty and the fan-outs, not the
   * sends, paced the deliveries. With 48 they fill, a lead's activities take
   * fewer statements, and PostgreSQL's CPU per delivery falls (bench/RESULTS.md,
   * "Reading the runs of 06:48–08:12").
   */
  concurrency?: number;
  /**
   * Deliveries the fan-outs may claim and send themselves at once, beside the
   * delivery jobs (fanout.job.ts). Default: enough for every fan-out job running
   * at once to hold its reservation (48 × 4 = 192); 0 sends every head through the
   * delivery queue.
   */
  sendSlots?: number;
  /** Called once started (tests reach the deps and the reconciler through it). */
  onStarted?: (handle: WebhookHandle) => void;
}

export interface WebhookHandle {
  deps: WebhookDeps;
  reconcileNow(): Promise<number>;
}

/**
 * How long a job's lock lives without renewal: after that a killed worker's job
 * is handed to another process by BullMQ's stalled-job check. The lock is renewed
 * while the job runs, so it need not cover an attempt; it is bounded by the
 * attempt timeout so that a delivery interrupted by a crash comes back about as
 * soon as the attempt would have given up.
 */
function lockDurationMs(timeoutMs: number): number {
  return Math.min(30_000, Math.max(2_000, timeoutMs));
}

/**
 * What the batches below do when a call fails: a batch rolled back by a
 * deadlock runs once more; one that still fails (but not for want of the
 * database) runs item by item, so only the item at fault fails.
 */
const BATCH_FAILURES = {
  retryOnce: isTransactionRollback,
  isolateOnFailure: (err: unknown) => !isDatabaseUnavailable(err),
};
/**
 * Attempts are recorded in batches (MicroBatcher, webhook_record_attempts): at most
 * two record transactions at a time, each with the attempts that finished while
 * the others ran, up to WEBHOOK_RECORD_BATCH_SIZE (64). An attempt whose record fails leaves its delivery
 * leased until the reconciler sends it again.
 */
const RECORD_BATCHING = { ...BATCH_FAILURES, maxInFlight: 2 };
/**
 * Fan-outs likewise (webhook_fan_out_claims): each call holds its leads' locks
 * until it commits, so batches (WEBHOOK_FANOUT_BATCH_SIZE, 8) stay smaller than
 * the fan-out jobs running at once.
 */
const FAN_OUT_BATCHING = { ...BATCH_FAILURES, maxInFlight: 2 };

/**
 * The webhook worker's own work: a BullMQ worker on `activity` (fan-out), one on
 * `delivery` (sign, POST, record, retry, advance the chain), and the reconciler.
 * stop() closes the BullMQ workers, which finish their current jobs or leave
 * them to the stalled-job check; attempts still in flight at the drain deadline
 * (a subscriber slower than the drain) are aborted and handed back.
 */
export function webhookComponent(options: WebhookComponentOptions = {}): WorkerComponent {
  let pool: Pool | undefined;
  let workers: Worker[] = [];
  const clients: RedisClient[] = [];
  let reconciler: PeriodicTask | undefined;
  let stopped = false;
  let slots: SendSlots | undefined;
  let interrupt = new AbortController();

  return {
    name: 'webhooks',
    registerMetrics: registerDisabledSubscriptionsGauge,
    start(ctx: WorkerContext) {
      const { config, logger, metrics, queues } = ctx;
      stopped = false;
      interrupt = new AbortController();
      // Every attempt in flight listens on it (up to the send slots plus the
      // delivery jobs at once): no leak to warn about.
      setMaxListeners(0, interrupt.signal);
      // WEBHOOK_FANOUT_CONCURRENCY and WEBHOOK_DELIVERY_CONCURRENCY (docs/operations.md, "Settings").
      const activityConcurrency = options.concurrency ?? config.webhookFanoutConcurrency;
      const deliveryConcurrency = options.concurrency ?? config.webhookDeliveryConcurrency;
      // Jobs hold a connection only for their one statement at a time (never
      // across an HTTP attempt), so fewer connections than jobs serve them; the
      // server's connections are shared with every other process.
      pool = createPool({
        databaseUrl: config.databaseUrl,
        max: Math.min(
          config.webhookWorkerDatabasePoolSize,
          activityConcurrency + deliveryConcurrency,
        ),
      });
      // A fan-out reserves its slots before it waits for its batch's transaction
      // (fanout.job.ts); with fewer slots than all fan-outs' reservations, the
      // fan-outs queued behind a batch got none under load, and their heads took
      // the delivery queue: a job and a claim transaction more per delivery
      // (bench/RESULTS.md, "Figures that code comments quoted").
      slots = new SendSlots(options.sendSlots ?? activityConcurrency * CLAIM_PER_FAN_OUT);
      const deps: WebhookDeps = {
        slots,
        // A slot lapses after an attempt's lease and a chain walk's length: held
        // longer only by a process that died with it (subscription-cap.ts).
        cap: new SubscriptionCap(
          queues.redis,
          config.queuePrefix,
          config.webhookMaxInFlightPerSubscription,
          leaseMs({ timeoutMs: config.webhookTimeoutMs }) + CHAIN_RUN_MS,
          logger,
        ),
        pool,
        queues,
        logger,
        timeoutMs: config.webhookTimeoutMs,
        retryScheduleMs: config.webhookRetryScheduleMs,
        allowPrivateTargets: config.webhookAllowPrivateTargets,
        now: options.now ?? (() => new Date()),
        random: options.random ?? Math.random,
        stopping: () => stopped,
        interrupt: interrupt.signal,
        records: new MicroBatcher({
          ...RECORD_BATCHING,
          maxBatchSize: config.webhookRecordBatchSize,
          run: (items) => recordAttempts(deps, items),
        }),
        fanOuts: new MicroBatcher({
          ...FAN_OUT_BATCHING,
          maxBatchSize: config.webhookFanoutBatchSize,
          run: (items) => fanOutMany(deps, items),
        }),
        ...(options.resolve ? { resolve: options.resolve } : {}),
        metrics: {
          deliveries: new Counter({
            name: 'leadhook_webhook_deliveries_total',
            help: 'Deliveries that reached a final state, by result (succeeded, failed)',
            labelNames: ['result'] as const,
            registers: [metrics.registry],
          }),
          attemptDuration: new Histogram({
            name: 'leadhook_webhook_attempt_duration_seconds',
            help: 'Duration of one HTTP attempt, by outcome (success, http_error, timeout, refused, network_error)',
            labelNames: ['outcome'] as const,
            buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
            registers: [metrics.registry],
          }),
          subscriptionsDisabled: new Counter({
            name: 'leadhook_webhook_subscriptions_disabled_total',
            help: 'Subscriptions the worker disabled, by reason (gone: a 410; failing: 5 days of failures)',
            labelNames: ['reason'] as const,
            registers: [metrics.registry],
          }),
          capped: new Counter({
            name: 'leadhook_webhook_deliveries_capped_total',
            help: 'Deliveries put back unsent because their subscription had WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION attempts in flight, by path (delivery_job, fan_out)',
            labelNames: ['path'] as const,
            registers: [metrics.registry],
          }),
        },
      };
      zeroWebhookMetrics(deps.metrics);

      const connect = () => {
        const redis = createWorkerRedis(config);
        clients.push(redis);
        return redis;
      };
      const lock = lockDurationMs(config.webhookTimeoutMs);
      const common = {
        lockDuration: lock,
        stalledInterval: lock,
      };

      const activityWorker = new Worker<{ activity_id: string }>(
        'activity',
        async (job) => {
          const started = Date.now();
          const { activity_id: activityId } = payloadOf('activity', job);
          const result = await fanOut(deps, activityId);
          // One line per activity: debug, like a successful attempt (what went
          // wrong is logged at warn where it happens).
          logger.debug(
            {
              activity_id: activityId,
              result: result.kind,
              ...(result.kind === 'fanned_out'
                ? {
                    deliveries: result.deliveries,
                    activities: result.activities,
                    sent_at_once: result.sent,
                  }
                : {}),
              duration_ms: Date.now() - started,
            },
            'fan-out job',
          );
        },
        {
          ...common,
          prefix: queues.prefixOf('activity'),
          concurrency: activityConcurrency,
          connection: connect(),
        },
      );

      const deliveryWorker = new Worker<DeliveryJobData>(
        'delivery',
        deliveryProcessor(deps, logger),
        {
          ...common,
          prefix: queues.prefixOf('delivery'),
          concurrency: deliveryConcurrency,
          connection: connect(),
        },
      );

      workers = [activityWorker, deliveryWorker];
      logQueueWorkerEvents(workers, logger);

      const intervalMs = options.reconcileIntervalMs ?? config.reconcileIntervalMs;
      const reconcileNow = () =>
        reconcileOnce(deps, { horizonMs: intervalMs, batchSize: config.reconcileBatchSize });
      reconciler = new PeriodicTask({
        run: reconcileNow,
        intervalMs,
        firstDelayMs: intervalMs,
        onError: (err) => logger.warn({ err }, 'delivery reconciler round failed; retrying'),
      });
      reconciler.start();
      options.onStarted?.({ deps, reconcileNow });
    },
    async stop(drain: AbortSignal) {
      stopped = true;
      // Attempts still in flight at the drain deadline are aborted and handed back
      // (delivery/hand-back.handler.ts), so that the jobs below end in time.
      const interruptNow = () => interrupt.abort(new Error('the worker is stopping'));
      if (drain.aborted) interruptNow();
      else drain.addEventListener('abort', interruptNow, { once: true });
      await reconciler?.stop();
      // With Redis away a worker has no job it could finish, and a plain close()
      // would wait for the connection forever: force it then.
      const redisDown = clients.some((c) => c.status !== 'ready');
      await Promise.all(workers.map((w) => w.close(redisDown)));
      workers = [];
      // The deliveries fan-outs are sending from here: each ends after its attempt
      // (stopping() ends the chain walk) and is recorded before the pool closes.
      // A fan-out still in its query (close(true) does not wait for jobs) starts
      // no send once draining: it hands back what it claimed (fanout.job.ts), or
      // leaves it to the reconciler once the lease lapses.
      await slots?.drain();
      for (const client of clients.splice(0)) client.disconnect();
      await pool?.end();
      pool = undefined;
      drain.removeEventListener('abort', interruptNow);
    },
  };
}
