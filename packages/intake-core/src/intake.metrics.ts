import type { Metrics } from '@leadhook/observability';
import { Counter } from 'prom-client';

/** What intake decided about a lead it read: the three stored answers (docs/intake.md, "Answers"). */
export const LEAD_RESULTS = ['accepted', 'duplicate', 'rejected'] as const;
export type LeadResult = (typeof LEAD_RESULTS)[number];

const NAME = 'leadhook_intake_leads_total';

/**
 * `leadhook_intake_leads_total{result}`: leads accepted (201), recorded as
 * duplicates (200) and rejected by validation (422). Idempotent replays are not
 * counted again; 4xx before validation (404, 413, 415, 429) and 503s are in
 * leadhook_http_requests_total. One counter per registry, every result at 0 from
 * the start so rates exist before the first lead.
 */
export function leadCounter(metrics: Metrics): Counter<'result'> {
  const existing = metrics.registry.getSingleMetric(NAME);
  if (existing) return existing as Counter<'result'>;
  const counter = new Counter({
    name: NAME,
    help: 'Leads intake stored an answer for, by result (accepted, duplicate, rejected)',
    labelNames: ['result'] as const,
    registers: [metrics.registry],
  });
  for (const result of LEAD_RESULTS) counter.inc({ result }, 0);
  return counter;
}
