import {
  createServiceRuntime,
  type ServiceWorkerDeps,
  type WorkerRuntime,
} from '@leadhook/worker-runtime';
import { type PlaybookComponentOptions, playbookComponent } from './playbook.component.js';

export interface WorkerDeps extends ServiceWorkerDeps {
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
  return createServiceRuntime('playbook-worker', deps, playbookComponent(deps.playbook));
}
