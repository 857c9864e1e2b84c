import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpServerSettings } from '@leadhook/config';
import type { Logger } from './logger.js';

/** How a server treats slow and idle clients: packages/config's `Config.http`. */
export type { HttpServerSettings };

/**
 * How often Node looks for requests past their headers or request timeout. Its
 * default (30 s) lets a client trickling headers hold its connection up to 30 s
 * past the timeout; each check walks only the connections with a request in
 * progress, so a second is cheap.
 */
export const CONNECTIONS_CHECK_INTERVAL_MS = 1000;

/** Refused connections repeat while a flood lasts: one log line per window. */
const DROP_LOG_INTERVAL_MS = 30_000;

/**
 * Every leadhook HTTP server (intake, api, their internal ports, the workers'
 * health servers) is made here, so each one cuts slow clients the same way:
 * headers trickled a byte at a time are cut at the headers timeout, a body
 * trickled after them at the request timeout (408, or the connection closed),
 * and connections beyond the cap are closed as they arrive, while those already
 * open keep working. A response that takes long is not cut: the timeouts cover
 * receiving the request only.
 *
 * Node checks the idle keep-alive timeout against each connection's last
 * request, and the headers timeout from the first byte of the next request, so
 * a keep-alive timeout longer than the headers timeout is safe.
 */
export function createHttpServer(
  handler: RequestListener,
  settings: HttpServerSettings,
  logger?: Logger,
): Server {
  const server = createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(
        CONNECTIONS_CHECK_INTERVAL_MS,
        settings.headersTimeoutMs,
      ),
    },
    handler,
  );
  server.maxConnections = settings.maxConnections;
  let droppedSince = 0;
  let lastLoggedAt = 0;
  server.on('drop', () => {
    droppedSince += 1;
    const now = Date.now();
    if (logger && now - lastLoggedAt >= DROP_LOG_INTERVAL_MS) {
      lastLoggedAt = now;
      logger.warn(
        { max_connections: settings.maxConnections, dropped: droppedSince },
        'connections refused: too many open',
      );
      droppedSince = 0;
    }
  });
  return server;
}
