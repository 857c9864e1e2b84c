import { connect, type Socket } from 'node:net';

/**
 * Slow and many clients, on raw sockets, for the tests of every HTTP server's
 * HTTP_* settings (docs/operations.md, "Settings").
 */

/** How a connection ended: when (ms after it opened) and what the server sent on it. */
export interface Ended {
  afterMs: number;
  received: string;
}

/** The status of each HTTP response in `text`. */
export function statusesIn(text: string): number[] {
  return [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1]));
}

/** One client connection that keeps what the server sends, for a test to inspect. */
export class RawConnection {
  private data = '';
  private waiters: Array<() => void> = [];
  /** Resolves when the server (or the network) closed the connection. */
  readonly ended: Promise<Ended>;

  private constructor(
    private readonly socket: Socket,
    openedAt: number,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.data += chunk;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.ended = new Promise((resolve) => {
      socket.on('error', () => {});
      socket.on('close', () => {
        resolve({ afterMs: Date.now() - openedAt, received: this.data });
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const openedAt = Date.now();
      const socket = connect(port, host);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket, openedAt));
      });
    });
  }

  get closed(): boolean {
    return this.socket.destroyed || this.socket.readyState === 'closed';
  }

  /** Everything the server sent so far. */
  get received(): string {
    return this.data;
  }

  write(text: string): void {
    if (!this.closed) this.socket.write(text);
  }

  /**
   * Sends a keep-alive GET and resolves with its status once the whole response
   * arrived; undefined when the connection closes first.
   */
  async get(path: string): Promise<number | undefined> {
    const before = this.data.length;
    this.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    for (;;) {
      const text = this.data.slice(before);
      const head = text.indexOf('\r\n\r\n');
      if (head >= 0) {
        const length = /^content-length: *(\d+)/im.exec(text.slice(0, head))?.[1];
        if (length !== undefined && text.length >= head + 4 + Number(length)) {
          return statusesIn(text)[0];
        }
      }
      if (this.closed) return undefined;
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  /**
   * Writes `text` a byte at a time, one every `intervalMs`, until it is all sent
   * or the connection closes.
   */
  async trickle(text: string, intervalMs: number): Promise<void> {
    for (const byte of text) {
      if (this.closed) return;
      this.write(byte);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  /**
   * Ends the connection the polite way and waits for the server to close its
   * side: once this resolves, the server no longer counts the connection (a
   * destroyed one may still count for a moment on a loaded machine).
   */
  async close(): Promise<void> {
    if (!this.closed) this.socket.end();
    await this.ended;
  }
}

/**
 * A request's headers sent a byte at a time, never finished: resolves when the
 * server closes the connection (`bytes` would take far longer than any test).
 */
export async function trickleHeaders(
  port: number,
  { intervalMs = 50, path = '/healthz' }: { intervalMs?: number; path?: string } = {},
): Promise<Ended> {
  const connection = await RawConnection.open(port);
  const headers = `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(100_000)}`;
  void connection.trickle(headers, intervalMs);
  return connection.ended;
}

/**
 * Complete headers announcing a body, then the body a byte at a time: resolves
 * when the server closes the connection, with what it answered (a 408, or
 * whatever the route answered before reading the body).
 */
export async function trickleBody(
  port: number,
  {
    path,
    intervalMs = 50,
    contentType = 'application/x-www-form-urlencoded',
  }: { path: string; intervalMs?: number; contentType?: string },
): Promise<Ended> {
  const connection = await RawConnection.open(port);
  const length = 100_000;
  connection.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`,
  );
  void connection.trickle('a'.repeat(length), intervalMs);
  return connection.ended;
}

/**
 * The connection cap: `cap` keep-alive connections that each got an answer to
 * GET `path`, then one more, which the server must close unanswered, then one
 * more request on each of the first ones, which must still be answered. Returns
 * what each step saw; the caller asserts.
 */
export async function overTheCap(
  port: number,
  cap: number,
  path = '/healthz',
): Promise<{
  first: (number | undefined)[];
  /** The status the extra connection got: undefined when it was closed unanswered. */
  extra: number | undefined;
  again: (number | undefined)[];
}> {
  const held: RawConnection[] = [];
  try {
    const first: (number | undefined)[] = [];
    for (let i = 0; i < cap; i++) {
      const connection = await RawConnection.open(port);
      held.push(connection);
      first.push(await connection.get(path));
    }
    const extraConnection = await RawConnection.open(port);
    held.push(extraConnection);
    // Asked at once: a server that accepted the connection answers it.
    const extra = await extraConnection.get(path);
    const again = await Promise.all(held.slice(0, cap).map((c) => c.get(path)));
    return { first, extra, again };
  } finally {
    // Closed, not destroyed: the next test may need every slot of the cap free.
    await Promise.all(held.map((c) => c.close()));
  }
}
