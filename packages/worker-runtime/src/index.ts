export type { RetentionKind, RetentionOptions } from './retention.js';
export { RETENTION_KINDS, RETENTION_LOCK_KEY, RetentionJob } from './retention.js';
export {
  QUEUE_STATES,
  registerOutboxLagGauge,
  registerQueueDepthGauge,
  withScrapeTimeout,
} from './scrape-metrics.js';
export type {
  WorkerComponent,
  WorkerContext,
  WorkerRuntime,
  WorkerRuntimeOptions,
} from './worker-runtime.js';
export { createWorkerRuntime, drainTimeoutMs, runWorker } from './worker-runtime.js';
