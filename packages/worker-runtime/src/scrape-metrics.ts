import type { Pool } from '@leadhook/db';
import { withTimeout } from '@leadhook/observability';
import { oldestOpenOutboxAgeSeconds, QUEUES, type QueueSet, type Topic } from '@leadhook/queue';
import { Gauge, type Registry } from 'prom-client';

/**
 * The runtime's gauges (queues, outbox) read from Redis and PostgreSQL when
 * Prometheus scrapes /metrics (a `collect` callback), never on a timer: a
 * scrape sees the state as it is. While the store is unreachable, or slower
 * than SCRAPE_TIMEOUT_MS, each series reads NaN ("unknown") rather than a stale
 * number; /readyz says which store is away. A service registers its domain's
 * gauges the same way on the runtime's registry (metrics.registry), with
 * withScrapeTimeout.
 */

/** Under Prometheus's default scrape timeout (10 s). */
const SCRAPE_TIMEOUT_MS = 5000;

/**
 * `leadhook_outbox_oldest_open_seconds`: age of the oldest outbox row no
 * consumer has closed (0 when none), the relay's lag. An index scan of the open
 * rows (the partial outbox_relay_<topic>_idx) in each day's partition of the
 * outbox: few rows unless consumers are behind.
 */
export function registerOutboxLagGauge(registry: Registry, pool: Pool): void {
  new Gauge({
    name: 'leadhook_outbox_oldest_open_seconds',
    help: 'Age of the oldest outbox row no consumer has closed yet (0 when none): the relay lag',
    registers: [registry],
    async collect() {
      try {
        this.set(await withScrapeTimeout(oldestOpenOutboxAgeSeconds(pool)));
      } catch {
        this.set(Number.NaN);
      }
    },
  });
}

/** The BullMQ states an operator watches: backlog, scheduled retries, in flight, dead. */
export const QUEUE_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

/**
 * A read a scrape-time gauge makes, bounded: a service's own gauges (its
 * domain's state, registered on the runtime's registry) use it too, so every
 * series of a scrape gives up at the same bound and reads NaN.
 */
export function withScrapeTimeout<T>(work: Promise<T>): Promise<T> {
  return withTimeout(work, SCRAPE_TIMEOUT_MS, () => new Error('scrape timed out'));
}

/**
 * `leadhook_queue_jobs{queue,state}`: jobs of every queue of the catalog per
 * state (BullMQ getJobCounts, one round trip per queue). Every worker process
 * exports every queue: aggregate with max by (queue, state).
 */
export function registerQueueDepthGauge(registry: Registry, queues: QueueSet): void {
  const topics = Object.keys(QUEUES) as Topic[];
  new Gauge({
    name: 'leadhook_queue_jobs',
    help: 'Jobs in each BullMQ queue by state (waiting, delayed, active, failed), read at scrape',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      await Promise.all(
        topics.map(async (topic) => {
          const queue = QUEUES[topic].name;
          let counts: Record<string, number> | undefined;
          try {
            // Disconnected: say so at once (BullMQ would wait for the connection).
            if (queues.redis.status !== 'ready') throw new Error(`redis is ${queues.redis.status}`);
            counts = await withScrapeTimeout(queues.get(topic).getJobCounts(...QUEUE_STATES));
          } catch {
            counts = undefined;
          }
          for (const state of QUEUE_STATES) {
            this.set({ queue, state }, counts ? (counts[state] ?? 0) : Number.NaN);
          }
        }),
      );
    },
  });
}
