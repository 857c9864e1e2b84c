import { createServer } from 'node:http';
import { loadConfigOrExit } from '@leadhook/config';
import { createPrisma } from '@leadhook/db';
import {
  closeServer,
  createLogger,
  createMetrics,
  listen,
  runProcess,
} from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { createApp } from './app.js';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'api', level: config.logLevel });
const metrics = createMetrics('api');
const prisma = createPrisma({ databaseUrl: config.databaseUrl });
// Activities reported through POST /leads/{id}/activities are announced on the
// activity queue. Producers fail fast: the outbox row committed with each
// activity is relayed once Redis is back, so a report never waits on Redis, and
// /readyz reports Redis without making it a condition of readiness (app.ts).
const queues = new QueueSet({ redisUrl: config.redisUrl, prefix: config.queuePrefix });

const app = createApp({
  prisma,
  logger,
  metrics,
  queues,
  options: {
    publicBaseUrl: config.publicBaseUrl,
    webhookAllowPrivateTargets: config.webhookAllowPrivateTargets,
    webhookTimeoutMs: config.webhookTimeoutMs,
    rateLimitPerKey: config.apiRateLimitPerKey,
    rateLimitPerAddress: config.apiRateLimitPerAddress,
    trustProxy: config.trustProxy,
    redisKeyPrefix: config.queuePrefix,
  },
});
const server = createServer(app);
runProcess({
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  async start() {
    const port = await listen(server, config.apiPort);
    logger.info({ port }, 'api listening');
  },
  async stop() {
    if (server.listening) await closeServer(server);
    await Promise.allSettled([prisma.$disconnect(), queues.close()]);
  },
});
