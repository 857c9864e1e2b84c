import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from '@leadhook/observability';
import express, { type RequestHandler, Router } from 'express';

/** Where the api serves the dashboard (docs/dashboard.md). */
export const DASHBOARD_PATH = '/dashboard';

/**
 * Every dashboard response's Content-Security-Policy: the page holds an API key,
 * so it runs only its own bundled scripts and styles, talks only to its own
 * origin, and cannot be framed (docs/dashboard.md, "What is served").
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A hashed asset's name changes with its content: cache it for a year, never revalidate. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('content-security-policy', DASHBOARD_CSP);
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'no-referrer');
  next();
};

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built</h1>
<p>This api has no dashboard files to serve. Run <code>pnpm build</code> (or <code>pnpm start</code>, which builds it) and reload.</p>
<p>The management API under <a href="/api/v1/openapi.json">/api/v1</a> works without it.</p>
</body></html>
`;

/**
 * The dashboard's static files from `dir` (services/dashboard/dist): hashed
 * assets cached for good, every other GET path index.html, revalidated each
 * time, so a deploy is seen at the next load. Without a build (no index.html),
 * 503 and a page that says so; the API itself is unaffected.
 */
export function dashboardRouter(dir: string | undefined, logger: Logger): Router {
  const router = Router();
  const root = dir === undefined ? undefined : resolve(dir);
  const index = root === undefined ? undefined : join(root, 'index.html');
  if (index === undefined || !existsSync(index)) {
    logger.warn(
      { dashboardDir: root ?? null },
      'the dashboard is not built: /dashboard answers 503 until pnpm build builds it',
    );
  }
  router.use(securityHeaders);
  if (root !== undefined) {
    router.use(
      '/assets',
      express.static(join(root, 'assets'), {
        // Set here: the app's standardHeaders already said no-store, which
        // express.static's own cacheControl would leave in place.
        cacheControl: false,
        setHeaders: (res) => res.setHeader('cache-control', IMMUTABLE),
        index: false,
        redirect: false,
      }),
    );
  }
  // An asset that does not exist is a 404, never index.html (an old page asking
  // for a file a new deploy removed must not get HTML as JavaScript).
  router.use('/assets', (_req, res) => {
    res.status(404).type('text/plain').send('Not found\n');
  });
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    if (index === undefined || !existsSync(index)) {
      res.status(503).type('html').send(NOT_BUILT_PAGE);
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index, { cacheControl: false }, (err) => {
      if (err) next(err);
    });
  });
  return router;
}
