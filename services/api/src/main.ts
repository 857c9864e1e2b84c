import { createServer } from 'node:http';
import { loadConfigOrExit } from '@leadhook/config';
import { createPrisma } from '@leadhook/db';
import {
  closeServer,
  createLogger,
  createMetrics,
  listen,
  onShutdownSignal,
} from '@leadhook/observability';
import { createRedis } from '@leadhook/queue';
import { createApp } from './app.js';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'api', level: config.logLevel });
const metrics = createMetrics('api');
const prisma = createPrisma({ databaseUrl: config.databaseUrl });
// The api enqueues nothing yet; Redis is checked so /readyz reflects what the
// activity endpoints (a later issue) will need.
const redis = createRedis(config.redisUrl);

const app = createApp({
  prisma,
  logger,
  metrics,
  options: { publicBaseUrl: config.publicBaseUrl },
  readinessChecks: { redis: () => redis.ping() },
});
const server = createServer(app);
const port = await listen(server, config.apiPort);
logger.info({ port }, 'api listening');

onShutdownSignal(logger, config.shutdownTimeoutMs, async () => {
  await closeServer(server);
  await Promise.allSettled([prisma.$disconnect(), redis.quit()]);
});
