export type { HealthOptions, HttpObservabilityOptions, ReadinessCheck } from './http.js';
export { healthRoutes, httpObservability, standardHeaders } from './http.js';
export { closeServer, listen, onShutdownSignal } from './lifecycle.js';
export type { Logger, LoggerConfig } from './logger.js';
export { createLogger, REDACT_PATHS } from './logger.js';
export type { Metrics } from './metrics.js';
export { createMetrics } from './metrics.js';
export { routeMatcher } from './route-label.js';
export { withTimeout } from './timeout.js';
