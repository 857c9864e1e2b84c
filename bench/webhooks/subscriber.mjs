// The bench's subscribers (bench/webhooks/run.mjs starts this as a child process so
// that the subscribers and the bare client do not share an event loop): N plain
// node:http servers on loopback, each answering 204 and recording, per request, the
// receipt time (ms since the epoch), the webhook-id and, while `keep` is on, the
// body. The parent talks over IPC:
//   → { cmd: 'receipts' }   ← { receipts: [[server, webhookId, receivedAtMs], ...] }
//   → { cmd: 'bodies' }     ← { bodies: [[server, webhookId, body], ...] } (first per id)
//   → { cmd: 'reset', keep } ← { reset: true } (forgets receipts; bodies kept)
//   → { cmd: 'count' }      ← { count }
import { createServer } from 'node:http';

const servers = Number(process.argv[2] ?? 3);
let keep = true;
let receipts = [];
const bodies = new Map();

const ports = await Promise.all(
  Array.from({ length: servers }, (_, index) => {
    const server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const id = req.headers['webhook-id'] ?? '';
        receipts.push([index, id, Date.now()]);
        if (keep) {
          const key = `${index} ${id}`;
          if (!bodies.has(key)) bodies.set(key, Buffer.concat(chunks).toString('utf8'));
        }
        res.statusCode = 204;
        res.end();
      });
    });
    server.keepAliveTimeout = 30_000;
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve(server.address().port)),
    );
  }),
);

process.on('message', (msg) => {
  if (msg.cmd === 'receipts') process.send({ receipts });
  else if (msg.cmd === 'count') process.send({ count: receipts.length });
  else if (msg.cmd === 'bodies') {
    process.send({
      bodies: [...bodies].map(([key, body]) => {
        const [server, id] = key.split(' ');
        return [Number(server), id, body];
      }),
    });
  } else if (msg.cmd === 'reset') {
    receipts = [];
    keep = Boolean(msg.keep);
    process.send({ reset: true });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ports });
