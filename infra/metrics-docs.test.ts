import { LEAD_RESULTS } from '@leadhook/intake-core';
import { QUEUES } from '@leadhook/queue';
import { QUEUE_STATES, RETENTION_KINDS } from '@leadhook/worker-runtime';
import {
  ENROLLMENT_RESULTS,
  STEP_SERIES,
} from '../services/playbook-worker/src/playbook.metrics.js';
import {
  ATTEMPT_OUTCOMES,
  attemptOutcome,
  CAPPED_PATHS,
  DELIVERY_RESULTS,
  DISABLED_REASONS,
  WORKER_DISABLE_REASONS,
} from '../services/webhook-worker/src/webhook.metrics.js';
import { documentedMetrics, type Labels } from './metrics-table.js';

// The "Metrics" table of docs/operations.md names each metric's labels and, for
// a label followed by a colon, exactly the values the code counts. Those values
// come from the code's own constants here, so a value added, dropped or renamed
// in the code (or in the docs) fails this test. e2e/metrics.test.ts checks the
// same table against what the running processes serve.

function documentedLabels(): Map<string, Labels> {
  return new Map(documentedMetrics().map((metric) => [metric.name, metric.labels]));
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** What the code counts, metric by metric (Node's default metrics aside). */
const CODE: Record<string, Labels> = {
  leadhook_http_requests_total: { method: null, route: null, status: null },
  leadhook_http_request_duration_seconds: { method: null, route: null, status: null },
  leadhook_intake_leads_total: { result: sorted(LEAD_RESULTS) },
  leadhook_outbox_oldest_open_seconds: {},
  leadhook_outbox_relayed_total: {},
  leadhook_outbox_relay_errors_total: {},
  leadhook_outbox_partitions_held: {},
  leadhook_queue_jobs: {
    queue: sorted(Object.values(QUEUES).map((q) => q.name)),
    state: sorted(QUEUE_STATES),
  },
  leadhook_playbook_steps_total: {
    type: sorted(STEP_SERIES.map((s) => s.type)),
    result: sorted(STEP_SERIES.map((s) => s.result)),
  },
  leadhook_playbook_step_lag_seconds: {},
  leadhook_playbook_oldest_due_step_seconds: {},
  leadhook_playbook_enrollments_total: { result: sorted(ENROLLMENT_RESULTS) },
  leadhook_playbook_enrollment_held_seconds: {},
  leadhook_webhook_deliveries_total: { result: sorted(DELIVERY_RESULTS) },
  leadhook_webhook_attempt_duration_seconds: { outcome: sorted(ATTEMPT_OUTCOMES) },
  leadhook_webhook_subscriptions_disabled_total: { reason: sorted(WORKER_DISABLE_REASONS) },
  leadhook_webhook_deliveries_capped_total: { path: sorted(CAPPED_PATHS) },
  leadhook_webhook_subscriptions_disabled: { reason: sorted(DISABLED_REASONS) },
  leadhook_retention_removed_total: { kind: sorted(RETENTION_KINDS) },
  leadhook_retention_last_run_timestamp_seconds: {},
  leadhook_retention_errors_total: {},
  leadhook_partition_errors_total: {},
};

describe('the metrics table of docs/operations.md', () => {
  const documented = documentedLabels();

  it('lists every metric the code registers, and only those', () => {
    expect(sorted(documented.keys())).toEqual(sorted(Object.keys(CODE)));
  });

  it.each(Object.entries(CODE))('lists the labels and label values of %s', (name, labels) => {
    expect(documented.get(name)).toEqual(labels);
  });
});

describe('the outcome label of a webhook attempt', () => {
  const result = (partial: Partial<Parameters<typeof attemptOutcome>[0]>) =>
    attemptOutcome({
      ok: false,
      statusCode: null,
      durationMs: 1,
      error: null,
      responseBody: null,
      retryAfterMs: null,
      ...partial,
    });

  it('tells a target the SSRF guard refused from a connection the subscriber refused', () => {
    expect(result({ error: 'refused: 10.0.0.1 resolves to a private address' })).toBe('refused');
    expect(result({ error: 'connection failed (ECONNREFUSED)' })).toBe('network_error');
    expect(result({ error: 'timeout after 15000 ms' })).toBe('timeout');
    expect(result({ statusCode: 500, error: 'unexpected status 500' })).toBe('http_error');
    expect(result({ ok: true, statusCode: 204 })).toBe('success');
  });
});
