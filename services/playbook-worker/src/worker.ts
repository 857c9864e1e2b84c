import type { Config } from '@leadhook/config';
import type { Logger } from '@leadhook/observability';
import { createWorkerRuntime, type WorkerRuntime } from '@leadhook/worker-runtime';

export interface WorkerDeps {
  config: Config;
  /** Defaults to config.playbookWorkerPort; 0 picks a free port (tests). */
  port?: number;
  logger?: Logger;
  relayIntervalMs?: number;
}

/**
 * The playbook-worker process: health, metrics and the outbox relay. Its own jobs
 * (enrollment, playbook steps, the contact window and the provider (later issues)) plug in here as runtime components.
 */
export function createWorker(deps: WorkerDeps): WorkerRuntime {
  return createWorkerRuntime({
    service: 'playbook-worker',
    config: deps.config,
    port: deps.port ?? deps.config.playbookWorkerPort,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.relayIntervalMs === undefined ? {} : { relayIntervalMs: deps.relayIntervalMs }),
    components: [],
  });
}
