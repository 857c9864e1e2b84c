import type { Server } from 'node:http';
import { createHttpServer, type HttpServerSettings } from './http-server.js';
import { closeServer, listen } from './lifecycle.js';
import {
  overTheCap,
  RawConnection,
  statusesIn,
  trickleBody,
  trickleHeaders,
} from './testing/index.js';

/**
 * The HTTP_* settings on a server of createHttpServer, with small values. Margins
 * are generous (a loaded machine): what matters is that a slow client is cut
 * near its timeout rather than after Node's defaults (5 minutes for a request,
 * checked every 30 s).
 */
const SETTINGS: HttpServerSettings = {
  headersTimeoutMs: 500,
  requestTimeoutMs: 1500,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 1024,
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => closeServer(s)));
});

async function serve(settings: Partial<HttpServerSettings> = {}): Promise<number> {
  const server = createHttpServer(
    (req, res) => {
      // Answers once the request is read, as a body parser does.
      req.resume();
      req.on('end', () => res.end('ok'));
    },
    { ...SETTINGS, ...settings },
  );
  servers.push(server);
  return listen(server, 0, '127.0.0.1');
}

describe('createHttpServer', () => {
  it('closes a connection whose headers trickle in, soon after the headers timeout', async () => {
    const port = await serve();
    const ended = await trickleHeaders(port, { intervalMs: 50 });
    // Still sending when cut: the timeout, not idleness, ended it.
    expect(ended.afterMs).toBeGreaterThanOrEqual(SETTINGS.headersTimeoutMs - 50);
    expect(ended.afterMs).toBeLessThan(SETTINGS.headersTimeoutMs + 1000 + 3000);
    expect(statusesIn(ended.received)).toEqual([408]);
  });

  it('cuts a body that trickles in after complete headers at the request timeout (408)', async () => {
    const port = await serve();
    const ended = await trickleBody(port, { path: '/', intervalMs: 50 });
    expect(ended.afterMs).toBeGreaterThanOrEqual(SETTINGS.requestTimeoutMs - 50);
    expect(ended.afterMs).toBeLessThan(SETTINGS.requestTimeoutMs + 1000 + 3000);
    expect(statusesIn(ended.received)).toEqual([408]);
  });

  it('closes the connection over the cap at once, and keeps serving the others', async () => {
    const port = await serve({
      maxConnections: 3,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 10_000,
    });
    const { first, extra, again } = await overTheCap(port, 3);
    expect(first).toEqual([200, 200, 200]);
    expect(extra).toBeUndefined();
    expect(again).toEqual([200, 200, 200]);
  });

  it('serves a request on a keep-alive connection left idle longer than the headers timeout', async () => {
    const port = await serve();
    const connection = await RawConnection.open(port);
    try {
      expect(await connection.get('/')).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, SETTINGS.headersTimeoutMs + 1500));
      expect(await connection.get('/')).toBe(200);
    } finally {
      connection.destroy();
    }
  });
});
