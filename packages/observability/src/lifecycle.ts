import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';

/**
 * What a process sends its supervisor (`pnpm start`, over the IPC channel it
 * opens) once SIGTERM and SIGINT drain it. The supervisor holds a stop signal
 * back until then: sent earlier, while the process still loads its modules, the
 * signal's default action would end it without draining or its "stopped" line.
 */
export const HANDLES_SIGNALS = 'leadhook:handles-signals';

/** Why a process stops: the signal, or its supervisor's exit (the IPC channel closed). */
export type StopReason = NodeJS.Signals | 'supervisor_exited';

export interface ProcessLifecycle {
  readonly logger: Logger;
  /**
   * The bound on a stop: past it the process exits 1 (a bound the supervisor and
   * orchestrators can rely on).
   */
  readonly timeoutMs: number;
  /**
   * Starts the process's work (connecting, listening, creating its workers).
   * `stopping` aborts when a stop is asked for while it runs: start then ends as
   * soon as it can (it may reject), and stop() follows once it has.
   */
  start(stopping: AbortSignal): Promise<void>;
  /** Stops what start() began, also a start cut short or failed. */
  stop(): Promise<void>;
}

/**
 * The main of a service process. Signal handling comes first, so a SIGTERM or
 * SIGINT at any point of start (e.g. a supervisor stopping while this process is
 * still connecting) drains: start is cut short and allowed to settle, then
 * stop() runs, "stopped" is logged and the process exits 0; 1 when stop fails or
 * outlasts `timeoutMs`. A start that fails on its own (a port taken) is logged,
 * stopped, and exits 1. Under a supervisor, the process also stops when the
 * supervisor is gone, rather than run on with no one to stop it.
 */
export function runProcess(lifecycle: ProcessLifecycle): void {
  const { logger, timeoutMs } = lifecycle;
  const stopping = new AbortController();
  let starting: Promise<void> = Promise.resolve();
  let stopAsked = false;

  const stopProcess = (exitCode: 0 | 1) => {
    const timer = setTimeout(() => {
      logger.error({ timeout_ms: timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stopping.abort();
    starting
      .catch(() => {})
      .then(() => lifecycle.stop())
      .then(
        () => {
          if (exitCode === 0) logger.info('stopped');
          process.exit(exitCode);
        },
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  const handle = (reason: StopReason) => {
    if (stopAsked) return;
    stopAsked = true;
    logger.info({ signal: reason, timeout_ms: timeoutMs }, 'shutting down');
    stopProcess(0);
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  if (process.send && process.channel) {
    // The channel must not keep the process alive by itself, and its end means
    // the supervisor is gone (even killed with SIGKILL): the children run in
    // process groups of their own, so nothing else would stop them.
    process.channel.unref();
    process.once('disconnect', () => {
      // The supervisor read this process's output and is gone with it: a write
      // to a pipe nobody reads fails (EPIPE), on which pino's final flush at
      // exit retries for ever, blocking the exit. No line can be read any more.
      logger.level = 'silent';
      handle('supervisor_exited');
    });
    process.send(HANDLES_SIGNALS);
  }

  starting = lifecycle.start(stopping.signal);
  starting.catch((err: unknown) => {
    // Cut short by a stop: that stop finishes the process.
    if (stopAsked) return;
    stopAsked = true;
    logger.fatal({ err }, 'failed to start');
    stopProcess(1);
  });
}

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
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * A service's two HTTP servers: `server` on the public port and `internal` (the
 * operators': /metrics, readiness checks) on the internal one (docs/operations.md,
 * "What to expose").
 */
export interface ServiceServers {
  readonly server: Server;
  readonly port: number;
  readonly internal: Server;
  readonly internalPort: number;
}

/** Listens on the internal port, then the public one; logs "<name> listening" with both ports. */
export async function listenServers(
  servers: ServiceServers,
  logger: Logger,
  name: string,
): Promise<void> {
  const internalPort = await listen(servers.internal, servers.internalPort);
  const port = await listen(servers.server, servers.port);
  logger.info({ port, internal_port: internalPort }, `${name} listening`);
}

/**
 * Drains the public server, then the internal one, so probes and scrapes are
 * answered until the public port has drained. A server that never started
 * listening (a start cut short) is skipped.
 */
export async function closeServers(servers: ServiceServers): Promise<void> {
  if (servers.server.listening) await closeServer(servers.server);
  if (servers.internal.listening) await closeServer(servers.internal);
}

/**
 * The main of a service that serves HTTP on its two ports (runProcess): it
 * listens on both (listenServers) and, when stopping, drains them (closeServers)
 * before `release` closes the process's connections.
 */
export function runServers(
  name: string,
  servers: ServiceServers,
  options: { logger: Logger; timeoutMs: number; release(): Promise<void> },
): void {
  runProcess({
    logger: options.logger,
    timeoutMs: options.timeoutMs,
    start: () => listenServers(servers, options.logger, name),
    async stop() {
      await closeServers(servers);
      await options.release();
    },
  });
}
