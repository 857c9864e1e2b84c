/**
 * The intake process: reads configuration, builds the app and serves it on the
 * public port with /healthz and a /readyz that names no dependency; /metrics and
 * /readyz with its checks (PostgreSQL; Redis reported but optional) are on the
 * internal port (docs/operations.md, "What to expose"). Drains on SIGTERM or
 * SIGINT, also one that comes while it is still starting.
 */
import { loadConfigOrExit } from '@leadhook/config';
import { createPool } from '@leadhook/db';
import {
  createHttpServer,
  createLogger,
  createMetrics,
  operatorApp,
  publicHealthRoutes,
  type ReadinessOptions,
  runServers,
} from '@leadhook/observability';
import { createRedis, QueueSet } from '@leadhook/queue';
import { createApp } from './app.js';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'intake', level: config.logLevel });
const metrics = createMetrics('intake');
const pool = createPool({ databaseUrl: config.databaseUrl, max: config.intakeDatabasePoolSize });
const redis = createRedis(config);
const queues = new QueueSet({
  redisUrl: config.redisUrl,
  redisCluster: config.redisCluster,
  prefix: config.queuePrefix,
});

const readiness: ReadinessOptions = {
  checks: { postgres: () => pool.query('SELECT 1') },
  // Intake accepts leads while Redis is away (the outbox relay enqueues them
  // later, the limiter lets requests through): reported, never "not ready",
  // so a load balancer keeps sending sellers here.
  optionalChecks: { redis: () => redis.ping() },
};

const app = createApp({
  pool,
  queues,
  redis,
  logger,
  metrics,
  options: {
    publicBaseUrl: config.publicBaseUrl,
    maxBodyBytes: config.intakeMaxBodyBytes,
    defaultRateLimitPerSecond: config.intakeRateLimitPerSource,
    duplicateWindowDays: config.duplicateWindowDays,
    trustProxy: config.trustProxy,
    redisKeyPrefix: config.queuePrefix,
    providerWebhookSecret: config.providerWebhookSecret,
    twilioAuthToken: config.twilio?.authToken ?? null,
  },
  health: publicHealthRoutes(readiness),
});

const servers = {
  server: createHttpServer(app, config.http, logger),
  port: config.intakePort,
  internal: createHttpServer(operatorApp({ logger, metrics, ...readiness }), config.http, logger),
  internalPort: config.intakeInternalPort,
};
// The servers stop accepting and let in-flight requests finish first; a lead they
// committed is enrolled through its outbox row even if its fast-path enqueue is cut short.
runServers('intake', servers, {
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  async release() {
    await queues.close();
    redis.disconnect();
    await pool.end();
  },
});
