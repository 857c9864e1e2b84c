export type { HeldPartition, PartitionJobOptions, PartitionRound } from './partitions.js';
export {
  OUTBOX_PARTITION_DAYS_AHEAD,
  PARTITION_MONTHS_AHEAD,
  PARTITIONS_LOCK_KEY,
  PartitionJob,
} from './partitions.js';
export type { QueueWorkerEvents } from './queue-worker-events.js';
export { logQueueWorkerEvents } from './queue-worker-events.js';
export type { RetentionKind, RetentionOptions } from './retention.js';
export { RETENTION_KINDS, RETENTION_LOCK_KEY, RetentionJob } from './retention.js';
export {
  QUEUE_STATES,
  registerOutboxLagGauge,
  registerQueueDepthGauge,
  withScrapeTimeout,
} from './scrape-metrics.js';
export type {
  ServiceWorkerDeps,
  WorkerComponent,
  WorkerContext,
  WorkerRuntime,
  WorkerRuntimeOptions,
} from './worker-runtime.js';
export {
  createServiceRuntime,
  createWorkerRuntime,
  drainTimeoutMs,
  runWorker,
} from './worker-runtime.js';
