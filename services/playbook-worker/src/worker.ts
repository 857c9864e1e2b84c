import type { Config } from '@leadhook/config';
import {
  createServiceRuntime,
  type WorkerOverrides,
  type WorkerRuntime,
} from '@leadhook/worker-runtime';
import { registerOldestDueStepGauge } from './oldest-due-step.metrics.js';
import { type PlaybookComponentOptions, playbookComponent } from './playbook.component.js';

/** The configuration, and what tests may set (WorkerOverrides and the component's options). */
export interface WorkerDeps extends WorkerOverrides {
  config: Config;
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
  const runtime = createServiceRuntime(
    'playbook-worker',
    deps.config,
    deps.config.playbookWorkerPort,
    playbookComponent(deps.playbook),
    deps,
  );
  registerOldestDueStepGauge(runtime.metrics.registry, runtime.pool);
  return runtime;
}
