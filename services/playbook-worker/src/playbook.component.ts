import { ActivityRecorder } from '@leadhook/activities';
import type { Config } from '@leadhook/config';
import { createPool, createPrisma, type Pool, type PrismaClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import { zeroedCounter } from '@leadhook/observability';
import {
  applyStrandedHeldStatuses,
  type MessagingProvider,
  SimulationProvider,
  TwilioProvider,
} from '@leadhook/providers';
import { createWorkerRedis, PeriodicTask, payloadOf, type RedisClient } from '@leadhook/queue';
import {
  logQueueWorkerEvents,
  type WorkerComponent,
  type WorkerContext,
} from '@leadhook/worker-runtime';
import { Worker } from 'bullmq';
import { Counter, Histogram } from 'prom-client';
import { type AdmissionOptions, StepBacklogGate } from './admission.js';
import { enrollLead } from './enrollment.job.js';
import { registerOldestDueStepGauge } from './oldest-due-step.metrics.js';
import type { PlaybookDeps } from './playbook.deps.js';
import { ENROLLMENT_RESULTS, STEP_SERIES } from './playbook.metrics.js';
import { reconcileOnce } from './reconciler.js';
import { stepProcessor } from './step/step.job.js';
import type { StepPayload } from './step/step.runner.js';

export interface PlaybookComponentOptions {
  /** The clock of every scheduling decision; tests inject a fixed instant. */
  now?: () => Date;
  /** Builds the provider; default the one PROVIDER names (providerOf). */
  provider?: (prisma: PrismaClient) => MessagingProvider;
  /** How often the reconciler looks for due plays (ms). Default RECONCILE_INTERVAL_MS. */
  reconcileIntervalMs?: number;
  /** Step jobs run at once. Default PLAYBOOK_STEP_CONCURRENCY (5). */
  concurrency?: number;
  /**
   * Enrollment jobs run at once. Default PLAYBOOK_ENROLLMENT_CONCURRENCY (8): an enrollment is a few round trips
   * of waiting, so one at a time fell behind a steady stream of leads (bench/RESULTS.md,
   * "Figures that code comments quoted"); the admission gate, not this number,
   * keeps due steps first.
   */
  enrollmentConcurrency?: number;
  /** Admission control: enrollments wait while steps are late (admission.ts). */
  admission?: AdmissionOptions;
  /** Called once the component has started (tests reach the deps through it). */
  onStarted?: (handle: PlaybookHandle) => void;
}

/** What a running component exposes: the deps its jobs use. */
export interface PlaybookHandle {
  deps: PlaybookDeps;
  recorder: ActivityRecorder;
  reconcileNow(): Promise<number>;
}

/**
 * The playbook worker's own work as a worker-runtime component: a BullMQ worker
 * on `enrollment`, one on `playbook-step`, and the reconciler. stop() closes the
 * BullMQ workers, which finish their current jobs (or, past the drain deadline,
 * leave them to BullMQ's stalled-job check to hand to another process).
 */
export function playbookComponent(options: PlaybookComponentOptions = {}): WorkerComponent {
  let prisma: PrismaClient | undefined;
  let pool: Pool | undefined;
  let stopping = new AbortController();
  let workers: Worker[] = [];
  const clients: RedisClient[] = [];
  let reconciler: PeriodicTask | undefined;
  let stopped = false;
  let cancelPending: (() => void) | undefined;
  let credentialsRefused = false;

  return {
    name: 'playbook',
    registerMetrics: registerOldestDueStepGauge,
    readinessChecks: {
      // docs/operations.md, "Twilio": refused credentials make the worker unready until restarted with good ones.
      provider_credentials: async () => {
        if (credentialsRefused) throw new Error('the provider refused the credentials');
      },
    },
    async start(ctx: WorkerContext) {
      const { config, logger, metrics, queues } = ctx;
      // Prisma serves the reconciler and the recorder (tests); the hot path has
      // its own pg pool, so few connections are kept here.
      prisma = createPrisma({ databaseUrl: config.databaseUrl, poolMax: 3 });
      const db = prisma;
      // Connect now: a client still initialising when stop() disconnects it keeps
      // the process alive.
      await db.$connect();
      pool = createPool({
        databaseUrl: config.databaseUrl,
        max: config.playbookWorkerDatabasePoolSize,
      });
      stopping = new AbortController();
      const deps: PlaybookDeps = {
        prisma: db,
        pool,
        queues,
        logger,
        contactHours: config.contactHours,
        now: options.now ?? (() => new Date()),
        provider: options.provider?.(db) ?? providerOf(config, db, pool, logger),
        providerRetryScheduleMs: config.providerRetryScheduleMs,
        credentialsRefused: () => credentialsRefused,
        onCredentialsRefused: () => {
          if (credentialsRefused) return;
          credentialsRefused = true;
          logger.error(
            { provider: deps.provider.name },
            'the provider refused the credentials: no step is taken until they are fixed and the worker restarted',
          );
          // Stop taking jobs; those running finish (theirs come back later too),
          // and a job fetched before the pause is handed back (step.job.ts).
          for (const worker of workers) void worker.pause(true).catch(() => {});
        },
      };
      const steps = new Counter({
        name: 'leadhook_playbook_steps_total',
        help: 'Playbook step jobs, by step type and result (a provider status, deferred, not_due, skipped, retry or credentials_refused)',
        labelNames: ['type', 'result'] as const,
        registers: [metrics.registry],
      });
      const lag = new Histogram({
        name: 'leadhook_playbook_step_lag_seconds',
        help: 'Time from a step being due to it running',
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
        registers: [metrics.registry],
      });
      const gate = new StepBacklogGate(pool, deps.now, options.admission, (err) =>
        logger.warn({ err }, 'admission check failed; enrolling without it'),
      );
      const held = new Histogram({
        name: 'leadhook_playbook_enrollment_held_seconds',
        help: 'Time an enrollment waited for the due steps to drain (admission control)',
        buckets: [0, 0.05, 0.25, 1, 5, 15, 60, 300],
        registers: [metrics.registry],
      });
      const enrollments = zeroedCounter(metrics.registry, {
        name: 'leadhook_playbook_enrollments_total',
        help: 'Enrollment jobs, by result',
        label: 'result',
        values: ENROLLMENT_RESULTS,
      });
      // Every series at 0 from the start, so rates exist before the first job.
      for (const series of STEP_SERIES) steps.inc(series, 0);
      const connect = () => {
        const redis = createWorkerRedis(config);
        clients.push(redis);
        return redis;
      };
      const common = {
        concurrency: options.concurrency ?? config.playbookStepConcurrency,
      };

      // BullMQ workers are created once Redis answers: a Worker that has never
      // reached Redis cannot be closed (its close() waits for the connection), and
      // a process must stop cleanly even when Redis never came up.
      const createWorkers = () => {
        const enrollmentWorker = new Worker<{ lead_id: string }>(
          'enrollment',
          async (job) => {
            const started = Date.now();
            const heldMs = await gate.waitForRoom(stopping.signal);
            held.observe(heldMs / 1000);
            const { lead_id: leadId } = payloadOf('enrollment', job);
            const result = await enrollLead(deps, leadId);
            enrollments.inc({ result: result.kind });
            // A lead enrolled, or not and why, is news; one already enrolled
            // (a job delivered twice, the relay's re-send) is not.
            logger[result.kind === 'already_enrolled' ? 'debug' : 'info'](
              {
                lead_id: leadId,
                ...(result.kind === 'enrolled' || result.kind === 'already_enrolled'
                  ? { enrollment_id: result.enrollmentId }
                  : {}),
                result: result.kind,
                held_ms: heldMs,
                duration_ms: Date.now() - started,
              },
              'enrollment job',
            );
          },
          // Due steps come before new leads: each enrollment is held by the
          // admission gate while steps are late, so a burst of accepted leads
          // queues here instead of making every play late (bench/playbook).
          {
            ...common,
            prefix: queues.prefixOf('enrollment'),
            concurrency: options.enrollmentConcurrency ?? config.playbookEnrollmentConcurrency,
            connection: connect(),
          },
        );

        const stepWorker = new Worker<StepPayload>(
          'playbook-step',
          stepProcessor(deps, logger, { steps, lag }),
          { ...common, prefix: queues.prefixOf('playbook-step'), connection: connect() },
        );

        workers = [enrollmentWorker, stepWorker];
        logQueueWorkerEvents(workers, logger);
      };
      if (ctx.redis.status === 'ready') {
        createWorkers();
      } else {
        const onReady = () => {
          if (!stopped && workers.length === 0) createWorkers();
        };
        ctx.redis.once('ready', onReady);
        cancelPending = () => ctx.redis.off('ready', onReady);
      }

      const intervalMs = options.reconcileIntervalMs ?? config.reconcileIntervalMs;
      const reconcileNow = () =>
        reconcileOnce(deps, { horizonMs: intervalMs, batchSize: config.reconcileBatchSize });
      reconciler = new PeriodicTask({
        run: async () => {
          const count = await reconcileNow();
          if (count > 0) logger.info({ count }, 'reconciler enqueued steps');
          // Twilio statuses held for a SID whose step will not run again to apply them.
          const applied = await applyStrandedHeldStatuses(deps);
          if (applied > 0) logger.info({ count: applied }, 'reconciler recorded held statuses');
        },
        intervalMs,
        firstDelayMs: intervalMs,
        onError: (err) => logger.warn({ err }, 'reconciler round failed; retrying'),
      });
      reconciler.start();
      options.onStarted?.({
        deps,
        recorder: new ActivityRecorder({ prisma: db, queues, logger }),
        reconcileNow,
      });
    },
    async stop(drain: AbortSignal) {
      stopped = true;
      stopping.abort();
      await reconciler?.stop();
      cancelPending?.();
      // close() finishes the current jobs. With Redis gone it may wait for Redis
      // forever, and a job may outlast the drain (a provider that does not
      // answer): at the drain deadline the connections are dropped, and the
      // unfinished jobs' locks expire so BullMQ hands them to another process.
      const finished = await Promise.race([
        Promise.all(workers.map((w) => w.close())).then(() => true),
        aborted(drain).then(() => false),
      ]);
      workers = [];
      for (const client of clients.splice(0)) client.disconnect();
      // A step still running holds its pool client in the step's transaction (the
      // provider is called inside it, step/step.runner.ts), and ending the pool waits for
      // it: then the process's exit closes that connection instead, PostgreSQL
      // rolls the claim back, and the step runs again elsewhere with the same
      // idempotency key, as after a crash.
      const closing = Promise.all([prisma?.$disconnect(), pool?.end()]);
      prisma = undefined;
      pool = undefined;
      if (finished) await closing;
      else closing.catch(() => {});
    },
  };
}

/**
 * The provider PROVIDER names (docs/operations.md, "Messaging provider"): the
 * simulation with its configured outcomes, or Twilio. Its records are written
 * through the step's own pool, outside the step's transaction.
 */
function providerOf(
  config: Config,
  prisma: PrismaClient,
  pool: Pool,
  logger: Logger,
): MessagingProvider {
  if (config.provider === 'twilio' && config.twilio) {
    return new TwilioProvider({
      pool,
      settings: config.twilio,
      publicBaseUrl: config.publicBaseUrl,
      maxAttempts: config.providerRetryScheduleMs.length + 1,
      logger,
    });
  }
  return new SimulationProvider({
    prisma,
    pool,
    sms: config.providerSimulationSmsOutcome,
    call: config.providerSimulationCallOutcome,
  });
}

/** Resolves when `signal` aborts (at once if it has). */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
