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
 * A port nothing listens on right now: bound once, then released. For a server
 * a test starts (freePort) or an address that must be unreachable (closedPort).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return address.port;
}

/** A port nothing listens on (an unreachable Redis or PostgreSQL): freePort by its use. */
export const closedPort = freePort;
