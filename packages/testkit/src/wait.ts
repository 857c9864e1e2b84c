import { createServer } from 'node:net';

export interface WaitOptions {
  /** Fails after this long (ms). Default 15 s: long enough for a loaded machine. */
  timeoutMs?: number;
  /** Pause between probes (ms). Default 50. */
  intervalMs?: number;
  /**
   * A probe that throws counts as "not yet" (the last error is in the timeout's
   * message): for probes of a server that may not be listening yet. Default false:
   * an error fails the wait at once.
   */
  retryErrors?: boolean;
}

/**
 * Polls until probe gives a value: anything but undefined, null or false (never
 * a fixed sleep for a result). `options` may be the timeout alone.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: number | WaitOptions = {},
): Promise<T> {
  const {
    timeoutMs = 15_000,
    intervalMs = 50,
    retryErrors = false,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (err) {
      if (!retryErrors) throw err;
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError === undefined ? '' : `: ${String(lastError)}`;
      throw new Error(`waitFor timed out after ${timeoutMs} ms${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Where freePort looks: below Linux's ephemeral range (32768-60999 by default),
 * which the kernel hands to every outgoing connection. A port taken from that
 * range (bind to port 0) could be given to another test's client connection to
 * PostgreSQL or Redis before the test's server binds it, which one CI run saw
 * as EADDRINUSE.
 */
const FREE_PORT_LOW = 20_000;
const FREE_PORT_HIGH = 32_767;

/** Whether a server can listen on `port` as the services do (every address, IPv6 and IPv4). */
async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

/**
 * A port nothing listens on right now: a random one of 20000-32767 that a
 * server could bind, then released. For a server a test starts (freePort) or
 * an address that must be unreachable (closedPort).
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = FREE_PORT_LOW + Math.floor(Math.random() * (FREE_PORT_HIGH - FREE_PORT_LOW + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${FREE_PORT_LOW}-${FREE_PORT_HIGH} after 100 tries`);
}

/** A port nothing listens on (an unreachable Redis or PostgreSQL): freePort by its use. */
export const closedPort = freePort;
