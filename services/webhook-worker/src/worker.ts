import type { Config } from '@leadhook/config';
import type { Logger } from '@leadhook/observability';
import { createWorkerRuntime, type WorkerRuntime } from '@leadhook/worker-runtime';

export interface WorkerDeps {
  config: Config;
  /** Defaults to config.webhookWorkerPort; 0 picks a free port (tests). */
  port?: number;
  logger?: Logger;
  relayIntervalMs?: number;
}

/**
 * The webhook-worker process: health, metrics and the outbox relay. Its own jobs
 * (fan-out, signing, delivery and retries (later issues)) plug in here as runtime components.
 */
export function createWorker(deps: WorkerDeps): WorkerRuntime {
  return createWorkerRuntime({
    service: 'webhook-worker',
    config: deps.config,
    port: deps.port ?? deps.config.webhookWorkerPort,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.relayIntervalMs === undefined ? {} : { relayIntervalMs: deps.relayIntervalMs }),
    components: [],
  });
}
