export type { RedisClient, RedisClusterTarget, RedisTarget } from './connection.js';
export { createRedis, createWorkerRedis, isCluster, queueKeyPrefix } from './connection.js';
export type { OutboxRelayOptions, RelayRound } from './outbox-relay.js';
export { OutboxRelay, oldestOpenOutboxAgeSeconds, openOutboxRows } from './outbox-relay.js';
export type { PeriodicTaskOptions } from './periodic-task.js';
export { PeriodicJob, PeriodicTask } from './periodic-task.js';
export type {
  JobPayloads,
  OutboxTopic,
  QueueSetOptions,
  RelayingProcess,
  RequeueResult,
  Topic,
} from './queues.js';
export {
  DEFAULT_JOB_OPTIONS,
  isTopic,
  jobOptions,
  jobsOf,
  liveJob,
  OUTBOX_TOPICS,
  outboxTopicsRelayedBy,
  payloadOf,
  QUEUES,
  QueueSet,
  QueueUnavailableError,
  workKey,
} from './queues.js';
