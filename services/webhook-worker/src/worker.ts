import type { Config } from '@leadhook/config';
import type { Logger } from '@leadhook/observability';
import { outboxTopicsRelayedBy } from '@leadhook/queue';
import { createWorkerRuntime, type WorkerRuntime } from '@leadhook/worker-runtime';
import { registerDisabledSubscriptionsGauge } from './disabled-subscriptions.metrics.js';
import { type WebhookComponentOptions, webhookComponent } from './webhook.component.js';

export interface WorkerDeps {
  config: Config;
  /** Defaults to config.webhookWorkerPort; 0 picks a free port (tests). */
  port?: number;
  logger?: Logger;
  relayIntervalMs?: number;
  /** The clock, jitter, DNS stub and reconciler interval (tests). */
  webhooks?: WebhookComponentOptions;
}

/**
 * The webhook-worker process: health, metrics and the relay of the `activity`
 * outbox rows, whose queue it consumes (the runtime), plus fan-out, signed
 * delivery with retries, and the delivery reconciler (the webhooks component).
 */
export function createWorker(deps: WorkerDeps): WorkerRuntime {
  const runtime = createWorkerRuntime({
    service: 'webhook-worker',
    config: deps.config,
    port: deps.port ?? deps.config.webhookWorkerPort,
    relayTopics: outboxTopicsRelayedBy('webhook-worker'),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.relayIntervalMs === undefined ? {} : { relayIntervalMs: deps.relayIntervalMs }),
    components: [webhookComponent(deps.webhooks)],
  });
  registerDisabledSubscriptionsGauge(runtime.metrics.registry, runtime.pool);
  return runtime;
}
