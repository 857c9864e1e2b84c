import type { Server } from 'node:http';
import type { Config } from '@leadhook/config';
import { createPool, type Pool } from '@leadhook/db';
import {
  closeServer,
  createHttpServer,
  createLogger,
  createMetrics,
  type Logger,
  listen,
  type Metrics,
  operatorApp,
  type ReadinessCheck,
  runProcess,
  zeroedCounter,
} from '@leadhook/observability';
import {
  OutboxRelay,
  type OutboxTopic,
  outboxTopicsRelayedBy,
  QueueSet,
  type RedisClient,
  type RelayingProcess,
} from '@leadhook/queue';
import { Counter, Gauge, type Registry } from 'prom-client';
import { PartitionJob } from './partitions.js';
import { RETENTION_KINDS, RetentionJob } from './retention.js';
import { registerOutboxLagGauge, registerQueueDepthGauge } from './scrape-metrics.js';

/**
 * What every worker process runs besides its own jobs (docs/operations.md,
 * "Architecture"): a small HTTP server for /healthz, /readyz and /metrics, the outbox
 * relay of the topics the worker consumes, the retention and partition jobs and the queue-depth gauges. A worker's real work (BullMQ workers, reconcilers) plugs in as components,
 * which share the runtime's pool, queues and metrics.
 */

/** What a component receives when it starts. */
export interface WorkerContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** This process's PostgreSQL pool. */
  readonly pool: Pool;
  /** Producers for every queue (fail fast when Redis is away). */
  readonly queues: QueueSet;
  /** The queues' fail-fast Redis client (readiness, small commands). */
  readonly redis: RedisClient;
}

/**
 * A piece of a worker's job. Components start after the relay and HTTP server,
 * in order, and stop first, in reverse order, while /healthz still answers: a
 * component's stop is where it finishes or hands back its current jobs.
 */
export interface WorkerComponent {
  readonly name: string;
  /**
   * Checks of its own that /readyz runs besides PostgreSQL's and Redis's, by
   * name (the playbook worker's `provider_credentials`).
   */
  readonly readinessChecks?: Record<string, ReadinessCheck>;
  /** Registers the metrics it reads at scrape time, once, as the runtime is created. */
  registerMetrics?(registry: Registry, pool: Pool): void;
  start(context: WorkerContext): Promise<void> | void;
  /**
   * `drain` aborts at the drain deadline (drainTimeoutMs after the stop began,
   * shared by every component): what is still running then is to be handed back
   * or left to its lease, so that stop() resolves before the process's bound.
   */
  stop(drain: AbortSignal): Promise<void>;
}

/**
 * How long a worker's components may take to finish their jobs when the process
 * stops (the drain deadline), out of SHUTDOWN_TIMEOUT_MS: a fifth of it, at most
 * 2 s, is kept for what stops after them (relay, retention, HTTP server, the
 * Redis and PostgreSQL connections) and for the exit. A component that waited
 * the whole bound would be cut off by the process's own timer (runProcess:
 * exit 1), with its jobs neither finished nor handed back.
 */
export function drainTimeoutMs(shutdownTimeoutMs: number): number {
  return shutdownTimeoutMs - Math.min(2000, Math.round(shutdownTimeoutMs / 5));
}

export interface WorkerRuntimeOptions {
  /** The process name in logs and metrics: playbook-worker, webhook-worker. */
  service: string;
  config: Config;
  /** HTTP port for health and metrics; 0 picks a free one (tests). */
  port: number;
  host?: string;
  /** Defaults to a JSON logger at config.logLevel. */
  logger?: Logger;
  /**
   * The outbox topics this process relays: those whose queue it consumes
   * (`outboxTopicsRelayedBy(service)`, packages/queue), none for a process that
   * consumes no outbox topic.
   */
  relayTopics: readonly OutboxTopic[];
  /** How often the relay looks for open outbox rows (ms). */
  relayIntervalMs?: number;
  /** How often the retention job runs (ms); a minute by default. */
  retentionIntervalMs?: number;
  /** When the partition job's first round runs (ms after start); a minute by default. */
  partitionsFirstDelayMs?: number;
  components?: readonly WorkerComponent[];
}

export interface WorkerRuntime extends WorkerContext {
  /**
   * Starts the relay, the HTTP server and the components; resolves with the bound
   * port. Rejects when stop() (or `stopping`) cut it short: it starts nothing
   * more once asked to stop.
   */
  start(stopping?: AbortSignal): Promise<{ port: number }>;
  /**
   * Stops everything; safe to call more than once, after a failed start, and
   * while start() runs: it waits for start to end, then stops what it started.
   */
  stop(): Promise<void>;
}

/** Relay failures repeat every round while a dependency is away: log one per window. */
const ERROR_LOG_INTERVAL_MS = 30_000;

export function createWorkerRuntime(options: WorkerRuntimeOptions): WorkerRuntime {
  const { config, service } = options;
  const logger = options.logger ?? createLogger({ service, level: config.logLevel });
  const metrics = createMetrics(service);
  const pool = createPool({ databaseUrl: config.databaseUrl });
  const queues = new QueueSet({
    redisUrl: config.redisUrl,
    redisCluster: config.redisCluster,
    prefix: config.queuePrefix,
  });
  // Readiness pings the producers' own connection: "ready" means enqueues can work.
  const redis = queues.redis;
  const context: WorkerContext = { config, logger, metrics, pool, queues, redis };
  const components = options.components ?? [];

  const counter = (name: string, help: string) =>
    new Counter({ name, help, registers: [metrics.registry] });

  registerOutboxLagGauge(metrics.registry, pool);
  const relayed = counter(
    'leadhook_outbox_relayed_total',
    'Outbox rows the relay enqueued again (Redis did not hold their job pending)',
  );
  const relayErrors = counter(
    'leadhook_outbox_relay_errors_total',
    'Relay rounds or enqueues that failed (PostgreSQL or Redis unreachable)',
  );

  registerQueueDepthGauge(metrics.registry, queues);

  const retentionRemoved = zeroedCounter(metrics.registry, {
    name: 'leadhook_retention_removed_total',
    help: 'Rows the retention job removed (idempotency_keys, held_statuses) or emptied (attempt_bodies)',
    label: 'kind',
    values: RETENTION_KINDS,
  });
  const retentionLastRun = new Gauge({
    name: 'leadhook_retention_last_run_timestamp_seconds',
    help: 'When this process last finished a retention round (0: never; one copy works at a time)',
    registers: [metrics.registry],
  });
  const retentionErrors = counter(
    'leadhook_retention_errors_total',
    'Retention rounds that failed (PostgreSQL unreachable or a statement error)',
  );
  const retention = new RetentionJob({
    pool,
    attemptBodyRetentionMs: config.attemptBodyRetentionMs,
    ...(options.retentionIntervalMs === undefined
      ? {}
      : { intervalMs: options.retentionIntervalMs }),
    onRemoved: (kind, count) => retentionRemoved.inc({ kind }, count),
    onRound: (removed) => {
      retentionLastRun.setToCurrentTime();
      if (Object.values(removed).some((count) => count > 0)) {
        logger.info({ removed }, 'retention round');
      }
    },
    onError: (err) => {
      retentionErrors.inc();
      logger.warn({ err }, 'retention round failed; retrying next round');
    },
  });

  const partitionErrors = counter(
    'leadhook_partition_errors_total',
    'Partition rounds that failed (creating the months and days ahead or dropping expired ones)',
  );
  const outboxHeld = new Gauge({
    name: 'leadhook_outbox_partitions_held',
    help: 'Outbox days past OUTBOX_RETENTION that this copy last found with open rows and kept (a consumer is behind)',
    registers: [metrics.registry],
  });
  const partitions = new PartitionJob({
    pool,
    historyRetentionMs: config.historyRetentionMs,
    outboxRetentionMs: config.outboxRetentionMs,
    ...(options.partitionsFirstDelayMs === undefined
      ? {}
      : { firstDelayMs: options.partitionsFirstDelayMs }),
    onRound: ({ created, dropped, held }) => {
      if (created.length + dropped.length > 0) {
        logger.info({ created, dropped }, 'partitions round');
      }
      outboxHeld.set(held.length);
      for (const { partition, openRows } of held) {
        logger.warn(
          { partition, open_rows: openRows },
          'outbox partition past OUTBOX_RETENTION kept: rows of it are still open (a consumer is behind)',
        );
      }
    },
    onError: (err) => {
      partitionErrors.inc();
      logger.warn({ err }, 'partitions round failed; retrying next round');
    },
  });

  let lastErrorLoggedAt = 0;
  const relay = new OutboxRelay({
    pool,
    queues,
    topics: options.relayTopics,
    batchSize: config.outboxRelayBatchSize,
    ...(options.relayIntervalMs === undefined ? {} : { intervalMs: options.relayIntervalMs }),
    onRelayed: (count) => {
      relayed.inc(count);
      logger.info({ count }, 'outbox rows relayed');
    },
    onError: (err) => {
      relayErrors.inc();
      const now = Date.now();
      if (now - lastErrorLoggedAt >= ERROR_LOG_INTERVAL_MS) {
        lastErrorLoggedAt = now;
        logger.warn({ err }, 'outbox relay failed; retrying');
      }
    },
  });

  // The worker's port is an operators' one (docs/operations.md, "What to expose"),
  // with the HTTP_* limits of every server.
  const app = operatorApp({
    logger,
    metrics,
    checks: {
      postgres: () => pool.query('SELECT 1'),
      redis: () => redis.ping(),
      ...Object.assign({}, ...components.map((c) => c.readinessChecks ?? {})),
    },
  });
  const server: Server = createHttpServer(app, config.http, logger);

  const started: WorkerComponent[] = [];
  let listening = false;
  let starting: Promise<unknown> | undefined;
  let stopping: Promise<void> | undefined;
  const stopAsked = new AbortController();

  async function startAll(signal: AbortSignal): Promise<{ port: number }> {
    const check = () => {
      if (signal.aborted) throw new Error('stopped while starting');
    };
    check();
    relay.start();
    retention.start();
    partitions.start();
    const port = await listen(server, options.port, options.host);
    listening = true;
    for (const component of components) {
      check();
      await component.start(context);
      started.push(component);
    }
    check();
    logger.info({ port }, 'worker started');
    return { port };
  }

  function start(outside?: AbortSignal): Promise<{ port: number }> {
    const signal = outside ? AbortSignal.any([outside, stopAsked.signal]) : stopAsked.signal;
    const run = startAll(signal);
    starting = run;
    return run;
  }

  async function shutdown(): Promise<void> {
    const failures: unknown[] = [];
    const attempt = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (err) {
        failures.push(err);
        logger.error({ err, what }, 'error while stopping');
      }
    };
    const drain = new AbortController();
    const deadline = setTimeout(
      () => drain.abort(new Error('drain deadline')),
      drainTimeoutMs(config.shutdownTimeoutMs),
    );
    deadline.unref();
    for (const component of [...started].reverse()) {
      await attempt(component.name, () => component.stop(drain.signal));
    }
    clearTimeout(deadline);
    await attempt('outbox relay', () => relay.stop());
    await attempt('retention', () => retention.stop());
    await attempt('partitions', () => partitions.stop());
    if (listening) await attempt('http server', () => closeServer(server));
    // queues.close() also drops the shared Redis connection.
    await Promise.all([
      attempt('queues', () => queues.close()),
      attempt('postgres pool', () => pool.end()),
    ]);
    if (failures.length > 0) throw new AggregateError(failures, 'worker stopped with errors');
  }

  function stop(): Promise<void> {
    stopAsked.abort();
    // What a start in progress creates (a component, the listening server) is
    // stopped too: shutting down under it would leave that running.
    stopping ??= (starting ?? Promise.resolve()).then(shutdown, shutdown);
    return stopping;
  }

  for (const component of components) component.registerMetrics?.(metrics.registry, pool);
  return { ...context, start, stop };
}

/** A worker service's configuration, and what its tests may set. */
export interface ServiceWorkerDeps {
  config: Config;
  /** Defaults to the service's configured port; 0 picks a free port (tests). */
  port?: number;
  logger?: Logger;
  relayIntervalMs?: number;
}

/** The setting that holds each worker service's port. */
const SERVICE_PORTS = {
  'playbook-worker': 'playbookWorkerPort',
  'webhook-worker': 'webhookWorkerPort',
} as const satisfies Record<RelayingProcess, keyof Config>;

/**
 * The runtime of a worker service: it relays the outbox topics whose queue the
 * service consumes, listens on its configured port (unless deps.port overrides
 * it) and runs `component`.
 */
export function createServiceRuntime(
  service: RelayingProcess,
  deps: ServiceWorkerDeps,
  component: WorkerComponent,
): WorkerRuntime {
  return createWorkerRuntime({
    service,
    config: deps.config,
    port: deps.port ?? deps.config[SERVICE_PORTS[service]],
    relayTopics: outboxTopicsRelayedBy(service),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.relayIntervalMs === undefined ? {} : { relayIntervalMs: deps.relayIntervalMs }),
    components: [component],
  });
}

/**
 * The main of a worker process: stops the runtime on SIGTERM/SIGINT within
 * config.shutdownTimeoutMs, also while it is still starting, and exits 1 when it
 * cannot start (port taken).
 */
export function runWorker(runtime: WorkerRuntime): void {
  runProcess({
    logger: runtime.logger,
    timeoutMs: runtime.config.shutdownTimeoutMs,
    start: async (stopping) => {
      await runtime.start(stopping);
    },
    stop: () => runtime.stop(),
  });
}
