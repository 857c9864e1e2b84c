export type {
  WorkerComponent,
  WorkerContext,
  WorkerRuntime,
  WorkerRuntimeOptions,
} from './worker-runtime.js';
export { createWorkerRuntime, runWorker } from './worker-runtime.js';
