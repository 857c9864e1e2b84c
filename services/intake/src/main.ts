/**
 * The intake process: reads configuration, builds the app, serves it with
 * /healthz, /readyz (PostgreSQL; Redis reported but optional) and /metrics, and
 * drains on SIGTERM or SIGINT, also one that comes while it is still starting.
 */
import { createServer } from 'node:http';
import { loadConfigOrExit } from '@leadhook/config';
import { createPool } from '@leadhook/db';
import {
  closeServer,
  createLogger,
  createMetrics,
  healthRoutes,
  listen,
  runProcess,
} from '@leadhook/observability';
import { createRedis, QueueSet } from '@leadhook/queue';
import { createApp } from './app.js';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'intake', level: config.logLevel });
const metrics = createMetrics('intake');
const pool = createPool({ databaseUrl: config.databaseUrl, max: 20 });
const redis = createRedis(config.redisUrl);
const queues = new QueueSet({
  redisUrl: config.redisUrl,
  prefix: config.queuePrefix,
});

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
  },
  health: healthRoutes({
    checks: { postgres: () => pool.query('SELECT 1') },
    // Intake accepts leads while Redis is away (the outbox relay enqueues them
    // later, the limiter lets requests through): reported, never "not ready",
    // so a load balancer keeps sending sellers here.
    optionalChecks: { redis: () => redis.ping() },
    registry: metrics.registry,
  }),
});

const server = createServer(app);
runProcess({
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  async start() {
    const port = await listen(server, config.intakePort);
    logger.info({ port }, 'intake listening');
  },
  async stop() {
    // Stop accepting and let in-flight requests finish; a lead they committed is
    // enrolled through its outbox row even if its fast-path enqueue is cut short.
    if (server.listening) await closeServer(server);
    await queues.close();
    redis.disconnect();
    await pool.end();
  },
});
