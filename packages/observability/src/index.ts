export type { HealthOptions, HttpObservabilityOptions, ReadinessCheck } from './http.js';
export { healthRoutes, httpObservability } from './http.js';
export type { ProcessLifecycle, StopReason } from './lifecycle.js';
export { closeServer, HANDLES_SIGNALS, listen, runProcess } from './lifecycle.js';
export type { Logger, LoggerConfig } from './logger.js';
export { createLogger, REDACT_PATHS } from './logger.js';
export type { Metrics } from './metrics.js';
export { createMetrics } from './metrics.js';
export { withTimeout } from './timeout.js';
