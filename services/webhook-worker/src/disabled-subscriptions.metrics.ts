import type { Pool } from '@leadhook/db';
import { withScrapeTimeout } from '@leadhook/worker-runtime';
import { Gauge, type Registry } from 'prom-client';
import { DISABLED_REASONS } from './webhook.metrics.js';

/**
 * `leadhook_webhook_subscriptions_disabled{reason}`: subscriptions disabled now
 * (not deleted), read when /metrics is scraped, NaN while PostgreSQL is away.
 * The label is the row's disabled_code (set with disabled_reason by the API and
 * by webhook_disable); a disabled row without one reads `other`. One grouped
 * count over the subscriptions table, which holds a few rows per account.
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
            `SELECT coalesce(disabled_code, 'other') AS reason, count(*)::int AS count
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
