import { Agent, createServer, request } from 'node:http';
import { closeServer, listen } from './lifecycle.js';

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
