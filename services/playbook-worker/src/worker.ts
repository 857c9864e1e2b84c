import type { Config } from '@leadhook/config';
import type { Logger } from '@leadhook/observability';
import { outboxTopicsRelayedBy } from '@leadhook/queue';
import { createWorkerRuntime, type WorkerRuntime } from '@leadhook/worker-runtime';
import { registerOldestDueStepGauge } from './oldest-due-step.metrics.js';
import { type PlaybookComponentOptions, playbookComponent } from './playbook.component.js';

export interface WorkerDeps {
  config: Config;
  /** Defaults to config.playbookWorkerPort; 0 picks a free port (tests). */
  port?: number;
  logger?: Logger;
  relayIntervalMs?: number;
  /** The clock, the provider, the reconciler's interval (tests). */
  playbook?: PlaybookComponentOptions;
}

/**
 * The playbook-worker process: health, metrics and the relay of the
 * `enrollment` outbox rows, whose queue it consumes (the runtime), plus
 * enrollment, playbook steps in the contact window and the reconciler (the
 * playbook component).
 */
export function createWorker(deps: WorkerDeps): WorkerRuntime {
  const runtime = createWorkerRuntime({
    service: 'playbook-worker',
    config: deps.config,
    port: deps.port ?? deps.config.playbookWorkerPort,
    relayTopics: outboxTopicsRelayedBy('playbook-worker'),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.relayIntervalMs === undefined ? {} : { relayIntervalMs: deps.relayIntervalMs }),
    components: [playbookComponent(deps.playbook)],
  });
  registerOldestDueStepGauge(runtime.metrics.registry, runtime.pool);
  return runtime;
}
