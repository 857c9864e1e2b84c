import type { Pool } from '@leadhook/db';
import { withTimeout } from '@leadhook/observability';
import { oldestOpenOutboxAgeSeconds, QUEUES, type QueueSet, type Topic } from '@leadhook/queue';
import { Gauge, type Registry } from 'prom-client';

/**
 * Gauges read from Redis and PostgreSQL when Prometheus scrapes /metrics (a
 * `collect` callback), never on a timer: a scrape sees the state as it is. While
 * the store is unreachable, or slower than SCRAPE_TIMEOUT_MS, each series reads
 * NaN ("unknown") rather than a stale number; /readyz says which store is away.
 */

/** Under Prometheus's default scrape timeout (10 s). */
const SCRAPE_TIMEOUT_MS = 5000;

/**
 * `leadhook_outbox_oldest_open_seconds`: age of the oldest outbox row no
 * consumer has closed (0 when none), the relay's lag. One index scan of the open
 * rows (the partial outbox_relay_<topic>_idx), which are few unless consumers are behind.
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

/**
 * `leadhook_playbook_oldest_due_step_seconds`: how late the most overdue step of
 * an active play is now (0 when none is due), read from PostgreSQL. The step lag
 * histogram is observed when a step runs, so it goes quiet exactly when steps
 * stop running (a stalled or stopped playbook-worker, Redis away); this gauge
 * keeps growing then. A step deferred to the lead's contact window is not due
 * (its next_run_at is the window's opening). One probe of the first entry of
 * enrollments (status, next_run_at).
 */
export function registerOldestDueStepGauge(registry: Registry, pool: Pool): void {
  new Gauge({
    name: 'leadhook_playbook_oldest_due_step_seconds',
    help: 'How late the most overdue step of an active play is now (0 when none is due), read at scrape',
    registers: [registry],
    async collect() {
      try {
        const { rows } = await withScrapeTimeout(
          pool.query<{ late: number }>(
            `SELECT coalesce(extract(epoch FROM now() - min(next_run_at)), 0)::float8 AS late
               FROM enrollments
              WHERE status = 'active' AND next_run_at <= now()`,
          ),
        );
        this.set(Math.max(0, rows[0]?.late ?? 0));
      } catch {
        this.set(Number.NaN);
      }
    },
  });
}

/** The BullMQ states an operator watches: backlog, scheduled retries, in flight, dead. */
export const QUEUE_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

function withScrapeTimeout<T>(work: Promise<T>): Promise<T> {
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

/**
 * Why a subscription is disabled, as a label: `manual` (the account turned it
 * off), `gone` (a 410), `failing` (5 days of failures), `other`. disabled_reason
 * holds the sentence the account reads (prisma/functions/webhook/webhook_record_attempt.sql),
 * so the label is taken from its wording; every reason is exported, 0 when none.
 */
export const DISABLED_REASONS = ['manual', 'gone', 'failing', 'other'] as const;

/**
 * `leadhook_webhook_subscriptions_disabled{reason}`: subscriptions disabled now
 * (not deleted). One grouped count over the subscriptions table, which holds a
 * few rows per account.
 */
export function registerDisabledSubscriptionsGauge(registry: Registry, pool: Pool): void {
  new Gauge({
    name: 'leadhook_webhook_subscriptions_disabled',
    help: 'Subscriptions disabled now, by reason (manual, gone: a 410, failing: 5 days of failures), read at scrape',
    labelNames: ['reason'] as const,
    registers: [registry],
    async collect() {
      let counts: Map<string, number> | undefined;
      try {
        const { rows } = await withScrapeTimeout(
          pool.query<{ reason: string; count: number }>(
            `SELECT CASE WHEN disabled_reason = 'manual' THEN 'manual'
                         WHEN disabled_reason LIKE '%410 Gone%' THEN 'gone'
                         WHEN disabled_reason LIKE 'Every delivery failed%' THEN 'failing'
                         ELSE 'other' END AS reason,
                    count(*)::int AS count
               FROM subscriptions
              WHERE NOT enabled AND deleted_at IS NULL
              GROUP BY 1`,
          ),
        );
        counts = new Map(rows.map((r) => [r.reason, r.count]));
      } catch {
        counts = undefined;
      }
      for (const reason of DISABLED_REASONS) {
        this.set({ reason }, counts ? (counts.get(reason) ?? 0) : Number.NaN);
      }
    },
  });
}
