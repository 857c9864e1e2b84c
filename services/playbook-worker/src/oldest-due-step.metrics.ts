import type { Pool } from '@leadhook/db';
import { withScrapeTimeout } from '@leadhook/worker-runtime';
import { Gauge, type Registry } from 'prom-client';

/**
 * `leadhook_playbook_oldest_due_step_seconds`: how late the most overdue step of
 * an active play is now (0 when none is due), read from PostgreSQL when /metrics
 * is scraped, NaN while it is away. The step lag histogram is observed when a
 * step runs, so it goes quiet exactly when steps stop running (a stalled or
 * stopped playbook-worker, Redis away); this gauge keeps growing then. A step
 * deferred to the lead's contact window is not due (its next_run_at is the
 * window's opening). One probe of the first entry of enrollments (status, next_run_at).
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
