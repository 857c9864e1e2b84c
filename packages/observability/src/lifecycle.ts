import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';

/**
 * Runs `shutdown` once on SIGTERM or SIGINT, then exits; exits with 1 if it has not
 * finished within `timeoutMs` (a bound the supervisor and orchestrators can rely on).
 */
export function onShutdownSignal(
  logger: Logger,
  timeoutMs: number,
  shutdown: () => Promise<void>,
): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, timeout_ms: timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeout_ms: timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    shutdown().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

/**
 * Idle keep-alive connections are kept longer than a load balancer keeps its own
 * (60 s on the common ones), so the balancer closes them first: when the server
 * closes one the balancer is reusing, that request fails (a 502 for the seller).
 * Node's default is 5 s.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Stops accepting connections and resolves when in-flight requests finished.
 * A keep-alive client under load never leaves its connection idle, and close()
 * alone would keep serving it until the shutdown bound killed the process with
 * requests in flight (found by e2e/faults): so every answer from now on says
 * `Connection: close`, and each connection is closed as soon as it is idle.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    const closing = (_req: IncomingMessage, res: ServerResponse) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    };
    server.on('request', closing);
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close((err) => {
      clearInterval(sweep);
      server.off('request', closing);
      if (err) reject(err);
      else resolve();
    });
    // Keep-alive connections with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
}

/** Listens and resolves with the bound port (0 = any free port, for tests). */
export function listen(server: Server, port: number, host?: string): Promise<number> {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Must exceed keepAliveTimeout, or a request arriving on an idle connection can be cut.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
