import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler, type Response, type Router } from 'express';
import type { Registry } from 'prom-client';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { routeMatcher } from './route-label.js';
import { withTimeout } from './timeout.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface HttpObservabilityOptions {
  logger: Logger;
  metrics: Metrics;
  /**
   * Rewrites a URL before it is logged. Intake masks the source key in
   * /marketing_sources/{account_id}/{source_key}: the key is a credential.
   */
  redactUrl?: (url: string) => string;
  /**
   * Every route template the app serves, in full (`/api/v1/playbooks/:id`): the
   * `route` label is the one the path matches, for every status (routeMatcher).
   * Without it, or for a path none matches, the label is the route Express
   * dispatched to, else `unmatched`.
   */
  routes?: readonly string[];
  /**
   * Fields the app adds to the request's one log line: what the request did in
   * the app's own words (intake: `source_id`, `lead_id`, `result`, `reasons`).
   * Read once, when the line is written; ids and codes only, never a value.
   */
  logFields?: (res: Response) => Record<string, unknown> | undefined;
}

/** Paths answered without a request log line (probes and scrapes would drown the rest). */
function isQuiet(url: string): boolean {
  return url === '/healthz' || url === '/readyz' || url === '/metrics';
}

/**
 * Request id (the caller's X-Request-Id when it is sane, else a new one, echoed
 * back), one JSON log line per request, and the HTTP metrics. Query strings are
 * never logged: they may carry personal data.
 *
 * The log line is the one pino-http wrote with our options, field for field:
 * `{reqId, req: {id, method, path}, res: {status}, responseTime}` and "request
 * completed" / "request aborted" at info, or with `err` and "request errored" at
 * error for a 5xx or a response stream error. Written by hand because pino-http
 * built two child loggers and a dozen closures per request even when the level
 * drops the line, a large share of the intake's CPU per lead (bench/RESULTS.md,
 * "Figures that code comments quoted").
 */
export function httpObservability(options: HttpObservabilityOptions): RequestHandler[] {
  const { logger, metrics } = options;
  const redact = options.redactUrl ?? ((url: string) => url);
  const matchRoute = options.routes ? routeMatcher(options.routes) : () => undefined;
  const observe: RequestHandler = (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', id);
    const startedAt = Date.now();
    const started = process.hrtime.bigint();
    const logs = !isQuiet(req.url);
    let done = false;

    const log = (err: Error | undefined): void => {
      if (done) return;
      done = true;
      res.off('close', onClose);
      res.off('error', onError);
      const failed = err !== undefined || res.statusCode >= 500;
      if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
      const line = {
        ...options.logFields?.(res),
        reqId: id,
        req: {
          id,
          method: req.method,
          path: redact((req.originalUrl || req.url).split('?')[0] ?? ''),
        },
        res: { status: res.headersSent ? res.statusCode : null },
      };
      const responseTime = Date.now() - startedAt;
      if (failed) {
        const error = err ?? new Error(`failed with status code ${res.statusCode}`);
        logger.error({ ...line, err: error, responseTime }, 'request errored');
      } else {
        logger.info(
          { ...line, responseTime },
          !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted',
        );
      }
    };
    const onClose = (): void => log(undefined);
    const onError = (err: Error): void => log(err);

    res.once('finish', () => {
      const route =
        matchRoute(req.originalUrl || req.url) ??
        (req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (logs) log(undefined);
    });
    if (logs) {
      res.once('close', onClose);
      res.once('error', onError);
    }
    next();
  };
  return [observe];
}

/**
 * Headers every answer of every leadhook server carries. `nosniff`: a browser
 * never reads a JSON answer (which may echo what a client sent) as HTML or
 * script. `no-store`: answers carry account data and secrets (an API key, a
 * `whsec_` secret, a post URL, which is the intake credential), and no answer
 * is meant to be reused, so no browser or proxy keeps a copy.
 */
export const standardHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('cache-control', 'no-store');
  next();
};

export type ReadinessCheck = () => Promise<unknown>;

/** What /readyz checks. */
export interface ReadinessOptions {
  /** Named dependency checks; /readyz answers 503 when any fails or takes > 2 s. */
  checks: Record<string, ReadinessCheck>;
  /**
   * Dependencies the process keeps working without: reported in /readyz's body,
   * never a 503. Intake accepts leads while Redis is away (the outbox relay sends
   * their jobs later); an orchestrator must keep routing sellers to it.
   */
  optionalChecks?: Record<string, ReadinessCheck>;
}

export interface HealthOptions extends ReadinessOptions {
  registry: Registry;
}

const CHECK_TIMEOUT_MS = 2000;

async function runCheck(check: ReadinessCheck): Promise<'ok' | 'unavailable'> {
  try {
    await withTimeout(check(), CHECK_TIMEOUT_MS, () => new Error('timeout'));
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

async function readiness(
  options: ReadinessOptions,
): Promise<{ ready: boolean; checks: Record<string, 'ok' | 'unavailable'> }> {
  const all = { ...options.optionalChecks, ...options.checks };
  const names = Object.keys(all);
  const results = await Promise.all(names.map((n) => runCheck(all[n]!)));
  const checks = Object.fromEntries(names.map((n, i) => [n, results[i]!]));
  const ready = names.every((n, i) => !(n in options.checks) || results[i] === 'ok');
  return { ready, checks };
}

/**
 * GET /healthz (alive), GET /readyz (dependencies reachable, each named with its
 * state) and GET /metrics: an operator's routes, for a port that is not exposed
 * (docs/operations.md, "What to expose").
 */
export function healthRoutes(options: HealthOptions): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const { ready, checks } = await readiness(options);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(options.registry.contentType).send(await options.registry.metrics());
  });
  return router;
}

/**
 * GET /healthz and GET /readyz for a public port: the load balancer in front may
 * probe them, so /readyz gives its status code and `{"status":"ok"|"unavailable"}`
 * but names no dependency; the detail and /metrics are on the internal port.
 */
export function publicHealthRoutes(options: ReadinessOptions): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const { ready } = await readiness(options);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable' });
  });
  return router;
}

export interface OperatorAppOptions extends ReadinessOptions {
  logger: Logger;
  metrics: Metrics;
}

/**
 * The app of an operators' port (intake's and the api's internal ports, a
 * worker's port): healthRoutes, and a JSON 404 for anything else.
 */
export function operatorApp(options: OperatorAppOptions): Express {
  const { logger, metrics } = options;
  const app = express();
  app.disable('x-powered-by');
  app.use(standardHeaders);
  app.use(httpObservability({ logger, metrics }));
  app.use(healthRoutes({ ...options, registry: metrics.registry }));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'not found' } });
  });
  return app;
}
