import { fileURLToPath } from 'node:url';
import { loadConfigOrExit } from '@leadhook/config';
import { createPool, createPrisma } from '@leadhook/db';
import { createHttpServer, createLogger, createMetrics, runServers } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { createApp, createInternalApp } from './app.js';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'api', level: config.logLevel });
const metrics = createMetrics('api');
const prisma = createPrisma({
  databaseUrl: config.databaseUrl,
  poolMax: config.apiDatabasePoolSize,
});
/**
 * The read replica's client, for the heavy reads (app.ts, ApiDeps.readPrisma):
 * a pool of the same size as the primary's, on another server (docs/operations.md, "Scaling").
 */
const readPrisma =
  config.databaseReadUrl === null
    ? undefined
    : createPrisma({ databaseUrl: config.databaseReadUrl, poolMax: config.apiDatabasePoolSize });
/**
 * Connections of the plain pg pool beside Prisma's: intake's own SQL, for the
 * leads POST /marketing_sources/{id}/leads creates (docs/operations.md, "Scaling").
 */
const LEAD_POOL_SIZE = 4;
const pool = createPool({ databaseUrl: config.databaseUrl, max: LEAD_POOL_SIZE });
// Activities reported through POST /leads/{id}/activities are announced on the
// activity queue. Producers fail fast: the outbox row committed with each
// activity is relayed once Redis is back, so a report never waits on Redis, and
// /readyz reports Redis without making it a condition of readiness (app.ts).
// Leads created through the API are announced on the enrollment queue the same
// way, covered by their outbox rows.
const queues = new QueueSet({
  redisUrl: config.redisUrl,
  redisCluster: config.redisCluster,
  prefix: config.queuePrefix,
});

const deps = {
  prisma,
  readPrisma,
  pool,
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
    // Built by `pnpm build` beside this service: services/dashboard/dist.
    dashboardDir: fileURLToPath(new URL('../../dashboard/dist', import.meta.url)),
    sourceRateLimitPerSecond: config.intakeRateLimitPerSource,
    duplicateWindowDays: config.duplicateWindowDays,
  },
};
// The public port serves the API and bare /healthz and /readyz; /metrics and
// /readyz's checks are on the internal port (docs/operations.md, "What to expose").
const servers = {
  server: createHttpServer(createApp(deps), config.http, logger),
  port: config.apiPort,
  internal: createHttpServer(createInternalApp(deps), config.http, logger),
  internalPort: config.apiInternalPort,
};
runServers('api', servers, {
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  async release() {
    await Promise.allSettled([
      prisma.$disconnect(),
      readPrisma?.$disconnect(),
      pool.end(),
      queues.close(),
    ]);
  },
});
