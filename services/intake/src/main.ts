/**
 * The intake process: reads configuration, builds the app, serves it with
 * /healthz, /readyz (PostgreSQL and Redis) and /metrics, and drains on SIGTERM.
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
  onShutdownSignal,
} from '@leadhook/observability';
import { createRedis, QueueSet } from '@leadhook/queue';
import { createApp } from './app.js';

/**
 * TRUST_PROXY (not yet in packages/config): "true" behind one or more trusted
 * proxies that set X-Forwarded-For, a number for that many hops, else false.
 */
function trustProxyFrom(text: string | undefined): boolean | number {
  const value = (text ?? '').trim().toLowerCase();
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === '' || value === 'false') return false;
  process.stderr.write(`leadhook: TRUST_PROXY: "${text}" is not true, false or a number of hops\n`);
  process.exit(1);
}

const config = loadConfigOrExit();
const trustProxy = trustProxyFrom(process.env.TRUST_PROXY);
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
    trustProxy,
  },
  health: healthRoutes({
    checks: {
      postgres: () => pool.query('SELECT 1'),
      redis: () => redis.ping(),
    },
    registry: metrics.registry,
  }),
});

const server = createServer(app);
const port = await listen(server, config.intakePort);
logger.info({ port }, 'intake listening');

onShutdownSignal(logger, config.shutdownTimeoutMs, async () => {
  // Stop accepting and let in-flight requests finish; a lead they committed is
  // enrolled through its outbox row even if its fast-path enqueue is cut short.
  await closeServer(server);
  await queues.close();
  redis.disconnect();
  await pool.end();
});
