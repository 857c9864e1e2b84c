import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler, type Router } from 'express';
import { pinoHttp } from 'pino-http';
import type { Registry } from 'prom-client';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface HttpObservabilityOptions {
  logger: Logger;
  metrics: Metrics;
  /**
   * Rewrites a URL before it is logged. Intake masks the source key in
   * /marketing_sources/{account_id}/{source_key}: the key is a credential.
   */
  redactUrl?: (url: string) => string;
}

/**
 * Request id (the caller's X-Request-Id when it is sane, else a new one, echoed
 * back), one JSON log line per request, and the HTTP metrics. Query strings are
 * never logged: they may carry personal data.
 */
export function httpObservability(options: HttpObservabilityOptions): RequestHandler[] {
  const redact = options.redactUrl ?? ((url: string) => url);
  const logRequest = pinoHttp({
    logger: options.logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: redact(req.url.split('?')[0] ?? ''),
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'info',
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/metrics' },
    quietReqLogger: true,
  });
  const measure: RequestHandler = (req, res, next) => {
    const end = options.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      const labels = { method: req.method, route, status: String(res.statusCode) };
      options.metrics.httpRequests.inc(labels);
      end(labels);
    });
    next();
  };
  return [logRequest, measure];
}

export type ReadinessCheck = () => Promise<unknown>;

export interface HealthOptions {
  /** Named dependency checks; /readyz answers 503 when any fails or takes > 2 s. */
  checks: Record<string, ReadinessCheck>;
  registry: Registry;
}

const CHECK_TIMEOUT_MS = 2000;

async function runCheck(check: ReadinessCheck): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/** GET /healthz (alive), GET /readyz (dependencies reachable), GET /metrics. */
export function healthRoutes(options: HealthOptions): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const names = Object.keys(options.checks);
    const results = await Promise.all(names.map((n) => runCheck(options.checks[n]!)));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i]]));
    const ready = results.every((r) => r === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(options.registry.contentType).send(await options.registry.metrics());
  });
  return router;
}
