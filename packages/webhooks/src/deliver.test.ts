import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { deliver, parseRetryAfter, RESPONSE_BODY_LIMIT, USER_AGENT } from './deliver.js';
import { generateSecret } from './signature.js';
import { isPublicAddress, type Resolve } from './target-guard.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  socket: Socket;
}

let server: Server;
let base: string;
let port: number;
const received: Received[] = [];
let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok');

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socket: req.socket,
      });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterEach(() => {
  received.length = 0;
  handler = (_req, res) => res.end('ok');
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function waitForReceived(n: number): Promise<void> {
  while (received.length < n) await new Promise((r) => setTimeout(r, 5));
}

const secret = generateSecret();
const common = {
  body: '{"id":"act_x"}',
  id: 'act_x',
  secrets: [secret],
  timeoutMs: 2000,
  allowPrivateTargets: true,
};

describe('deliver', () => {
  it('POSTs the body with the Standard Webhooks headers and reports a 2xx', async () => {
    handler = (_req, res) => res.writeHead(204).end();
    const now = new Date('2026-11-22T15:04:05.900Z');
    const result = await deliver({ ...common, url: `${base}/hook?token=abc`, now: () => now });
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null, retryAfterMs: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [req] = received;
    expect(req?.body).toBe(common.body);
    expect(req?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': 'act_x',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    });
    expect(USER_AGENT).toMatch(/^leadhook\/\d+\.\d+\.\d+ \(\+webhooks\)$/);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key)
      .update(`act_x.${req?.headers['webhook-timestamp']}.${common.body}`)
      .digest('base64');
    expect(req?.headers['webhook-signature']).toBe(`v1,${mac}`);
  });

  it('returns the start of the answer, truncated', async () => {
    handler = (_req, res) => res.writeHead(500).end('x'.repeat(100_000));
    const result = await deliver({ ...common, url: base });
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: 'unexpected status 500' });
    expect(result.responseBody).toBe('x'.repeat(RESPONSE_BODY_LIMIT));
  });

  it('keeps an answer with NUL bytes storable (PostgreSQL refuses them in text and jsonb)', async () => {
    handler = (_req, res) => res.writeHead(200).end('a\u0000b\u0000');
    const result = await deliver({ ...common, url: base });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result.responseBody).toBe('a\uFFFDb\uFFFD');
  });

  it('does not follow a redirect: a 3xx is a failure', async () => {
    handler = (req, res) => {
      if (req.url === '/elsewhere') res.end('followed');
      else res.writeHead(302, { location: '/elsewhere' }).end();
    };
    const result = await deliver({ ...common, url: `${base}/start` });
    expect(result).toMatchObject({ ok: false, statusCode: 302 });
    expect(result.error).toMatch(/redirect/);
    expect(received.map((r) => r.headers['webhook-id'])).toHaveLength(1);
  });

  it('times out a subscriber that does not answer', async () => {
    handler = () => {
      // never answers
    };
    const result = await deliver({ ...common, url: base, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timeout after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
  });

  it("rejects with the signal's reason when aborted before an answer (the caller stops)", async () => {
    handler = () => {
      // never answers
    };
    const controller = new AbortController();
    const reason = new Error('stopping');
    const attempt = deliver({ ...common, url: base, timeoutMs: 5000, signal: controller.signal });
    await waitForReceived(1);
    const abortedAt = Date.now();
    controller.abort(reason);
    await expect(attempt).rejects.toBe(reason);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    // Already aborted: nothing is sent.
    await expect(deliver({ ...common, url: base, signal: controller.signal })).rejects.toBe(reason);
    expect(received).toHaveLength(1);
  });

  it('keeps an answer whose status line came before the abort', async () => {
    const controller = new AbortController();
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('partial');
      setTimeout(() => controller.abort(new Error('stopping')), 50);
    };
    const result = await deliver({ ...common, url: base, signal: controller.signal });
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseBody: 'partial' });
  });

  it.each([
    [429, { 'retry-after': '7' }, 7000],
    [503, { 'retry-after': 'Sun, 22 Nov 2026 15:05:05 GMT' }, 60_000],
    [500, { 'retry-after': '7' }, null],
  ])('reads Retry-After on %i', async (status, headers, expected) => {
    handler = (_req, res) => res.writeHead(status, headers).end();
    const result = await deliver({
      ...common,
      url: base,
      now: () => new Date('2026-11-22T15:04:05Z'),
    });
    expect(result).toMatchObject({ ok: false, statusCode: status, retryAfterMs: expected });
  });

  it('reuses a keep-alive connection across attempts to one origin', async () => {
    handler = (_req, res) => res.writeHead(204).end();
    for (let i = 0; i < 3; i++) {
      expect(await deliver({ ...common, url: `${base}/reuse` })).toMatchObject({ ok: true });
    }
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.socket)).size).toBe(1);
  });

  it('sends as many attempts at once as a worker has in flight, none waiting for a connection', async () => {
    // A webhook worker has up to 96 delivery jobs and 192 send slots' attempts in
    // flight (services/webhook-worker). The subscriber answers none until it holds
    // them all: an attempt queued in the agent for a connection would never
    // arrive, and would time out unsent.
    const inFlight = 300;
    const held: ServerResponse[] = [];
    handler = (_req, res) => {
      held.push(res);
      if (held.length === inFlight) for (const r of held) r.writeHead(204).end();
    };
    const results = await Promise.all(
      Array.from({ length: inFlight }, () => deliver({ ...common, url: `${base}/many` })),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(received).toHaveLength(inFlight);
  });

  it('decodes a compressed answer before keeping its start', async () => {
    handler = (_req, res) =>
      res.writeHead(500, { 'content-encoding': 'gzip' }).end(gzipSync('boom, compressed'));
    const result = await deliver({ ...common, url: base });
    expect(result).toMatchObject({ statusCode: 500, responseBody: 'boom, compressed' });
  });

  it('sends again on a new connection when the pooled one was closed under it', async () => {
    // A server that answers the first request of each connection, keeps the
    // connection open, and resets it when a second request arrives on it (as a
    // server that timed out an idle connection just as it was reused).
    const requests: number[] = [];
    const sockets: Socket[] = [];
    const raw = createTcpServer((socket) => {
      const n = sockets.push(socket);
      let served = 0;
      socket.on('data', (chunk) => {
        if (!chunk.includes('\r\n\r\n')) return;
        served++;
        requests.push(n);
        if (served === 1) {
          socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
        } else {
          socket.resetAndDestroy();
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
    try {
      expect(await deliver({ ...common, url: rawUrl })).toMatchObject({
        ok: true,
        statusCode: 204,
      });
      expect(await deliver({ ...common, url: rawUrl })).toMatchObject({
        ok: true,
        statusCode: 204,
      });
      // The second attempt hit the reset on connection 1, then went through on connection 2.
      expect(requests).toEqual([1, 1, 2]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('reports a refused connection as an error without a status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await deliver({ ...common, url: `http://127.0.0.1:${closedPort}` });
    expect(result).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'connection failed (ECONNREFUSED)',
    });
  });
});

describe('the SSRF guard', () => {
  const refused = { ...common, allowPrivateTargets: false };

  it.each([
    'http://127.0.0.1:1/',
    'http://10.0.0.1/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://100.64.0.1/',
    'http://[fd00::1]/',
    'http://[::127.0.0.1]/',
    'http://[::169.254.169.254]/',
    'http://[::10.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
  ])('refuses the literal %s up front', async (url) => {
    const result = await deliver({ ...refused, url });
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/^refused: .+ resolves to a private address$/);
  });

  it('refuses a name that resolves to 127.0.0.1, at connect time', async () => {
    const asked: string[] = [];
    const resolve: Resolve = async (hostname) => {
      asked.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const result = await deliver({
      ...refused,
      url: `http://hooks.example.test:${port}/`,
      resolve,
    });
    expect(result.error).toBe('refused: hooks.example.test resolves to a private address');
    expect(asked).toEqual(['hooks.example.test']);
    expect(received).toHaveLength(0);
  });

  it.each(['::7f00:1', '::a9fe:a9fe', '64:ff9b::a00:1'])(
    'refuses a name that resolves to %s, at connect time',
    async (address) => {
      const resolve: Resolve = async () => [{ address, family: 6 }];
      const result = await deliver({
        ...refused,
        url: `http://hooks.example.test:${port}/`,
        resolve,
      });
      expect(result.error).toBe('refused: hooks.example.test resolves to a private address');
      expect(received).toHaveLength(0);
    },
  );

  it('refuses localhost through the system resolver', async () => {
    const result = await deliver({ ...refused, url: `http://localhost:${port}/` });
    expect(result.error).toBe('refused: localhost resolves to a private address');
    expect(received).toHaveLength(0);
  });

  it('lets the same name through when private targets are allowed', async () => {
    const resolve: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const result = await deliver({
      ...common,
      url: `http://hooks.example.test:${port}/`,
      resolve,
    });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(received[0]?.headers.host).toBe(`hooks.example.test:${port}`);
  });

  it('classifies addresses', () => {
    for (const a of ['8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:80b::200e']) {
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
    }
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '240.0.0.1',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      // Outside 2000::/3, or refused inside it, whatever ipaddr.js calls them.
      '::7f00:1',
      '::a9fe:a9fe',
      '::a00:1',
      '::808:808',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::1',
      'fec0::1',
      '100::1',
      '4000::1',
      '5f00::1',
      '2001::1',
      '2001:2::1',
      '2001:10::1',
      '2001:20::1',
      '2001:db8::1',
      '2002:7f00:1::',
      '3ffe::1',
      '3fff::1',
      'not an ip',
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
  });

  it('refuses a scheme other than http(s)', async () => {
    expect((await deliver({ ...common, url: 'ftp://example.com/' })).error).toMatch(/scheme/);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-11-22T15:04:05Z');
  it.each([
    [undefined, null],
    ['120', 120_000],
    ['Sun, 22 Nov 2026 15:04:15 GMT', 10_000],
    ['Sun, 22 Nov 2026 15:00:00 GMT', null],
    ['soon', null],
  ])('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
