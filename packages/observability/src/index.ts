export type {
  HealthOptions,
  HttpObservabilityOptions,
  OperatorAppOptions,
  ReadinessCheck,
  ReadinessOptions,
} from './http.js';
export {
  healthRoutes,
  httpObservability,
  operatorApp,
  publicHealthRoutes,
  standardHeaders,
} from './http.js';
export type { HttpServerSettings } from './http-server.js';
export { CONNECTIONS_CHECK_INTERVAL_MS, createHttpServer } from './http-server.js';
export type { ProcessLifecycle, ServiceServers, StopReason } from './lifecycle.js';
export {
  closeServer,
  closeServers,
  HANDLES_SIGNALS,
  listen,
  listenServers,
  runProcess,
  runServers,
} from './lifecycle.js';
export type { Logger, LoggerConfig } from './logger.js';
export { createLogger, REDACT_PATHS } from './logger.js';
export type { Metrics, ZeroedCounterSpec } from './metrics.js';
export { createMetrics, zeroedCounter } from './metrics.js';
export { routeMatcher } from './route-label.js';
export { withTimeout } from './timeout.js';
