import { ActivityRecorder } from '@leadhook/activities';
import { createLeadValidator, isUtf8ContentType } from '@leadhook/contracts';
import type { Pool, PrismaClient } from '@leadhook/db';
import { IntakeService, leadCounter } from '@leadhook/intake-core';
import {
  httpObservability,
  type Logger,
  type Metrics,
  operatorApp,
  publicHealthRoutes,
  type ReadinessOptions,
  standardHeaders,
} from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';
import { createRateLimiter } from '@leadhook/rate-limit';
import express, { type Express, type Request, type RequestHandler, Router } from 'express';
import { accountRoutes } from './account.routes.js';
import { activitiesRoutes } from './activities.routes.js';
import { loadApiReference } from './api-reference.js';
import { apiKeyIdOf, requireApiKey } from './auth.middleware.js';
import { DASHBOARD_PATH, dashboardRouter } from './dashboard.js';
import { deliveriesRoutes } from './deliveries.routes.js';
import { ApiError, errorHandler, notFound, routeNotFound } from './errors.js';
import { hooksRoutes } from './hooks.routes.js';
import { leadsRoutes } from './leads.routes.js';
import { redactApiPath } from './log-path.js';
import { metaRoutes } from './meta.routes.js';
import { buildOpenApiDocument } from './openapi.js';
import { playbooksRoutes } from './playbooks.routes.js';
import { rateLimit } from './rate-limit.middleware.js';
import { expressPath, mountRoutes } from './route.js';
import { API_ROUTES } from './routes.js';
import { leadLogFields, sourceLeadsRoutes } from './source-leads.routes.js';
import { sourcesRoutes } from './sources.routes.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import {
  SUPPRESSION_IMPORT_BODY_LIMIT,
  SUPPRESSION_IMPORT_PATH,
  suppressionsRoutes,
} from './suppressions.routes.js';

export interface ApiOptions {
  /** PUBLIC_BASE_URL: the base of every post_url. */
  publicBaseUrl: string;
  /** Where the intake server answers, for OpenAPI; defaults to publicBaseUrl. */
  intakeBaseUrl?: string;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS: subscription URLs may name private and loopback
   * hosts, and the test delivery may reach them (development, tests). Default
   * false: fail closed.
   */
  webhookAllowPrivateTargets?: boolean;
  /** WEBHOOK_TIMEOUT_MS: the test delivery's timeout, as a real delivery's. Default 15000. */
  webhookTimeoutMs?: number;
  /**
   * API_RATE_LIMIT_PER_KEY: requests per second one API key may send (bursts up
   * to twice that); 0 or unset = no limit.
   */
  rateLimitPerKey?: number;
  /** API_RATE_LIMIT_PER_ADDRESS: the same per client address, wrong keys included. */
  rateLimitPerAddress?: number;
  /** TRUST_PROXY: which address is the client's, for the per-address limit. */
  trustProxy?: boolean | number;
  /** QUEUE_PREFIX: the Redis key prefix the rate counters live under. */
  redisKeyPrefix?: string;
  /**
   * The dashboard's built files (services/dashboard/dist), served under /dashboard;
   * unset or not built: /dashboard answers 503 (docs/dashboard.md).
   */
  dashboardDir?: string;
  /**
   * INTAKE_RATE_LIMIT_PER_SOURCE: a source's leads per second when it sets no
   * rate_limit, counted with its post URL's; 0 or unset = no limit.
   */
  sourceRateLimitPerSecond?: number;
  /** DUPLICATE_WINDOW_DAYS: when the account sets none. Default 30. */
  duplicateWindowDays?: number;
}

const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000;
const DEFAULT_DUPLICATE_WINDOW_DAYS = 30;

export interface ApiDeps {
  /** The primary (DATABASE_URL): every write, and every read but readPrisma's. */
  prisma: PrismaClient;
  /**
   * A client on the read replica (DATABASE_READ_URL), for the routes declared
   * replicaRead only: stats, the lists of leads, sources and playbooks, the
   * delivery log (docs/operations.md, "Scaling"). Unset: they read the primary.
   */
  readPrisma?: PrismaClient;
  /**
   * A plain pg pool for intake's own SQL (packages/intake-core): the leads
   * POST /marketing_sources/{id}/leads creates take intake's path.
   */
  pool: Pool;
  logger: Logger;
  metrics: Metrics;
  /**
   * Producers for the activity jobs that POST /leads/{id}/activities announces
   * and the delivery jobs of redeliver and recover.
   */
  queues: QueueSet;
  options: ApiOptions;
}

export const API_PREFIX = '/api/v1';

const BODY_LIMIT = '256kb';

const jsonBody = express.json({ limit: BODY_LIMIT });
const importJsonBody = express.json({ limit: SUPPRESSION_IMPORT_BODY_LIMIT });
const importCsvBody = express.text({ type: 'text/csv', limit: SUPPRESSION_IMPORT_BODY_LIMIT });

/** The do-not-contact import (POST /suppressions/import)? */
const isImport = (req: Request) => req.method === 'POST' && req.path === SUPPRESSION_IMPORT_PATH;

/**
 * Every body is JSON up to 256 KiB, except the do-not-contact import's: 10,000
 * phones, as JSON or text/csv, up to 1 MiB (docs/api.md, "Do-not-contact").
 */
const bodyParser: RequestHandler = (req, res, next) => {
  if (!isImport(req)) {
    jsonBody(req, res, next);
    return;
  }
  if (req.is('text/csv') && !isUtf8ContentType(req.get('content-type'))) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the CSV as UTF-8.');
  }
  importJsonBody(req, res, (err?: unknown) => {
    if (err) next(err);
    else importCsvBody(req, res, next);
  });
};

/**
 * After express.json: a write without a JSON body is an empty object (so a create
 * lists its required fields), a body of another type is 415, and JSON that is not
 * an object (an array, a string) is malformed.
 */
const jsonObjectBody: RequestHandler = (req, _res, next) => {
  if (req.method !== 'POST' && req.method !== 'PATCH' && req.method !== 'PUT') {
    next();
    return;
  }
  if (req.body === undefined) {
    const length = Number(req.get('content-length') ?? '0');
    if (length > 0 || req.get('transfer-encoding') !== undefined) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');
    }
    req.body = {};
  } else if (isImport(req) && (typeof req.body === 'string' || Array.isArray(req.body))) {
    // The import's CSV, or its phones as a bare JSON array: its route reads them.
  } else if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
    throw new ApiError(400, 'malformed_body', 'The body must be a JSON object.');
  }
  next();
};

/**
 * Before express.json: a JSON body must be UTF-8 (no charset, or utf-8 in any
 * case). express.json would decode UTF-16 or UTF-7 into text that no check saw
 * as sent; another charset is 415, as for intake.
 */
const utf8Only: RequestHandler = (req, _res, next) => {
  if (req.is('application/json') && !isUtf8ContentType(req.get('content-type'))) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as UTF-8 JSON.');
  }
  next();
};

/**
 * An id in the path with a NUL in it (`%00`) names nothing that can exist, and
 * PostgreSQL cannot compare it: 404 before any route looks it up. (A lone
 * surrogate cannot come percent-encoded: it is not UTF-8, and express answers
 * 400 for a path parameter it cannot decode.)
 */
const noNulInPath: RequestHandler = (req, _res, next) => {
  if (req.path.includes('%00')) throw notFound();
  next();
};

/**
 * Every `/api/v1` route: the declared routes (routes.ts), each group mounted with
 * what its handlers need, the public ones before the API key is asked for.
 */
export function apiRouter(deps: ApiDeps): Router {
  const router = Router();
  const publicBaseUrl = deps.options.publicBaseUrl.replace(/\/+$/, '');
  const document = buildOpenApiDocument({
    intakeBaseUrl: (deps.options.intakeBaseUrl ?? publicBaseUrl).replace(/\/+$/, ''),
  });
  const limiter = (name: string) =>
    createRateLimiter({
      redis: deps.queues.redis,
      onRedisError: (err) =>
        deps.logger.warn({ err }, 'rate limiter unavailable; letting the request through'),
      keyPrefix: deps.options.redisKeyPrefix ?? 'leadhook',
      name,
    });
  // Per address first, before the body is read or a key looked up; per key once
  // the key is known, so one integration cannot use up its account's neighbours'
  // share of the database, nor send test deliveries without bound.
  router.use(
    rateLimit(
      limiter('api-address'),
      deps.options.rateLimitPerAddress ?? 0,
      (req) => req.ip ?? req.socket.remoteAddress ?? 'unknown',
    ),
  );
  router.use(utf8Only, bodyParser, jsonObjectBody);
  mountRoutes(router, metaRoutes, {
    document,
    reference: loadApiReference(API_PREFIX, document.info.title),
  });
  router.use(requireApiKey(deps.prisma));
  router.use(noNulInPath);
  router.use(
    rateLimit(limiter('api-key'), deps.options.rateLimitPerKey ?? 0, (_req, res) =>
      apiKeyIdOf(res),
    ),
  );
  // The routes declared replicaRead get the replica's context when one is set;
  // the rest, every write among them, the primary's.
  const { readPrisma } = deps;
  mountRoutes(router, accountRoutes, deps.prisma);
  mountRoutes(router, playbooksRoutes, deps.prisma, readPrisma);
  const sources = { prisma: deps.prisma, publicBaseUrl };
  mountRoutes(router, sourcesRoutes, sources, readPrisma && { ...sources, prisma: readPrisma });
  mountRoutes(router, sourceLeadsRoutes, {
    // Intake's limiter name and prefix: a source's rate counts its leads from
    // both ways in together.
    intake: new IntakeService({
      pool: deps.pool,
      queues: deps.queues,
      limiter: limiter('intake'),
      validate: createLeadValidator(),
      logger: deps.logger,
      defaultRateLimitPerSecond: deps.options.sourceRateLimitPerSecond ?? 0,
      duplicateWindowDays: deps.options.duplicateWindowDays ?? DEFAULT_DUPLICATE_WINDOW_DAYS,
    }),
    leads: leadCounter(deps.metrics),
  });
  mountRoutes(router, subscriptionsRoutes, {
    prisma: deps.prisma,
    allowPrivateTargets: deps.options.webhookAllowPrivateTargets ?? false,
    timeoutMs: deps.options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
  });
  mountRoutes(router, hooksRoutes, {
    prisma: deps.prisma,
    allowPrivateTargets: deps.options.webhookAllowPrivateTargets ?? false,
  });
  const deliveries = { prisma: deps.prisma, queues: deps.queues, logger: deps.logger };
  mountRoutes(
    router,
    deliveriesRoutes,
    deliveries,
    readPrisma && { ...deliveries, prisma: readPrisma },
  );
  mountRoutes(router, leadsRoutes, deps.prisma, readPrisma);
  mountRoutes(router, suppressionsRoutes, deps.prisma);
  mountRoutes(router, activitiesRoutes, {
    prisma: deps.prisma,
    recorder: new ActivityRecorder({
      prisma: deps.prisma,
      queues: deps.queues,
      logger: deps.logger,
    }),
  });
  return router;
}

/**
 * Ready means PostgreSQL answers, and the read replica when one is set
 * (`postgres_replica`): its routes would fail without it, and falling back to
 * the primary would hand the primary the very load the replica is there to take
 * (docs/operations.md, "Scaling"). Redis is reported in /readyz but optional, since
 * the API's only use of it is the fast-path enqueue of a reported activity, which
 * fails fast and is covered by the outbox row committed with the activity.
 */
function readiness(deps: ApiDeps): ReadinessOptions {
  const { readPrisma } = deps;
  return {
    checks: {
      postgres: () => deps.prisma.$queryRaw`SELECT 1`,
      ...(readPrisma ? { postgres_replica: () => readPrisma.$queryRaw`SELECT 1` } : {}),
    },
    optionalChecks: { redis: () => deps.queues.redis.ping() },
  };
}

/**
 * The api's internal port, for operators only: /metrics, /readyz naming each
 * dependency, /healthz (docs/operations.md, "What to expose").
 */
export function createInternalApp(deps: ApiDeps): Express {
  return operatorApp({ logger: deps.logger, metrics: deps.metrics, ...readiness(deps) });
}

/**
 * The management API (docs/api.md), the dashboard under /dashboard (docs/dashboard.md), with /healthz and a /readyz that gives its
 * status but names no dependency (a load balancer may probe them); metrics and
 * the readiness detail are createInternalApp's.
 */
export function createApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.options.trustProxy ?? false);
  app.use(standardHeaders);
  const api = apiRouter(deps);
  app.use(
    httpObservability({
      logger: deps.logger,
      metrics: deps.metrics,
      redactUrl: redactApiPath,
      // The route label is the template the path matches, for every status: a
      // 401 answered before routing and a 422 thrown out of a route count under
      // the same `/api/v1/…` template as its 2xx.
      routes: API_ROUTES.map((route) => `${API_PREFIX}${expressPath(route.path)}`),
      // A lead created through the API: what became of it, as intake's line says.
      logFields: leadLogFields,
    }),
  );
  app.use(publicHealthRoutes(readiness(deps)));
  app.use(API_PREFIX, api);
  // The browser dashboard for account owners (docs/dashboard.md); `/` leads to it.
  app.use(DASHBOARD_PATH, dashboardRouter(deps.options.dashboardDir, deps.logger));
  app.get('/', (_req, res) => {
    res.redirect(302, DASHBOARD_PATH);
  });
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger));
  return app;
}
