import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * One registry per process, with Node's default metrics under `leadhook_` and the
 * HTTP metrics every HTTP-serving process shares. Areas add their own metrics to
 * this registry (`leadhook_<area>_<thing>_total`, `_seconds` histograms).
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
}

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, prefix: 'leadhook_' });
  const httpRequests = new Counter({
    name: 'leadhook_http_requests_total',
    help: 'HTTP requests answered, by route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'leadhook_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, httpRequests, httpDuration };
}

export interface ZeroedCounterSpec<L extends string> {
  name: string;
  help: string;
  /** The counter's one label. */
  label: L;
  /** Every value the label takes: each series starts at 0. */
  values: readonly string[];
}

/**
 * A counter with one label, registered with every value of it at 0, so its rates
 * exist before the first increment and a scrape shows each value.
 */
export function zeroedCounter<L extends string>(
  registry: Registry,
  spec: ZeroedCounterSpec<L>,
): Counter<L> {
  const counter = new Counter({
    name: spec.name,
    help: spec.help,
    labelNames: [spec.label],
    registers: [registry],
  });
  for (const value of spec.values) {
    counter.inc({ [spec.label]: value } as Partial<Record<L, string>>, 0);
  }
  return counter;
}
