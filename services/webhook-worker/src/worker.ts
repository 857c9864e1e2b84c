import {
  createServiceRuntime,
  type ServiceWorkerDeps,
  type WorkerRuntime,
} from '@leadhook/worker-runtime';
import { type WebhookComponentOptions, webhookComponent } from './webhook.component.js';

export interface WorkerDeps extends ServiceWorkerDeps {
  /** The clock, jitter, DNS stub and reconciler interval (tests). */
  webhooks?: WebhookComponentOptions;
}

/**
 * The webhook-worker process: health, metrics and the relay of the `activity`
 * outbox rows, whose queue it consumes (the runtime), plus fan-out, signed
 * delivery with retries, and the delivery reconciler (the webhooks component).
 */
export function createWorker(deps: WorkerDeps): WorkerRuntime {
  return createServiceRuntime('webhook-worker', deps, webhookComponent(deps.webhooks));
}
