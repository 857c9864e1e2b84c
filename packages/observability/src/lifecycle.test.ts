import { Agent, createServer, get, request, type ServerResponse } from 'node:http';
import { createHttpServer } from './http-server.js';
import { closeServer, listen } from './lifecycle.js';

describe('listen and closeServer', () => {
  it('keeps idle connections longer than a load balancer, yet closes at once on shutdown', async () => {
    let held: ServerResponse | undefined;
    const server = createHttpServer(
      (req, res) => {
        if (req.url === '/slow') held = res;
        else res.end('ok');
      },
      {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 65_000,
        maxConnections: 16,
      },
    );
    const port = await listen(server, 0, '127.0.0.1');
    expect(server.keepAliveTimeout).toBe(65_000);

    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const fetchPath = (path: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers.connection));
        }).on('error', reject);
      });
    // One connection left idle, kept alive by the server...
    expect(await fetchPath('/')).toBe('keep-alive');
    // ...and one request in flight when the shutdown starts.
    const slow = fetchPath('/slow');
    while (!held) await new Promise((r) => setTimeout(r, 5));

    const closed = closeServer(server);
    held.end('ok');
    await slow;
    // Resolves once the answered connection goes idle, not after the keep-alive
    // timeout (65 s, past this test's own timeout).
    await closed;
    expect(server.listening).toBe(false);
    agent.destroy();
  });
});

describe('closeServer', () => {
  it('closes a keep-alive connection that never goes idle, answering its requests first', async () => {
    const server = createServer((_req, res) => {
      setTimeout(() => res.end('ok'), 5);
    });
    server.keepAliveTimeout = 60_000;
    const port = await listen(server, 0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answers: Array<number | string> = [];
    let stop = false;
    // One client reusing its connection back to back, as a seller under load does.
    const client = (async () => {
      while (!stop) {
        answers.push(
          await new Promise<number | string>((resolve) => {
            const req = request({ port, host: '127.0.0.1', agent, path: '/' }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            });
            req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
            req.end();
          }),
        );
      }
    })();
    while (answers.length < 5) await new Promise((r) => setTimeout(r, 10));

    const closed = await Promise.race([
      closeServer(server).then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open'), 3000)),
    ]);
    stop = true;
    await client;
    agent.destroy();
    expect(closed).toBe('closed');
    // Requests were answered until the end; after it the connection is refused.
    expect(answers.filter((a) => a !== 200 && a !== 'ECONNREFUSED' && a !== 'ECONNRESET')).toEqual(
      [],
    );
  });
});
