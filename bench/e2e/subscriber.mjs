// The end-to-end bench's subscriber (bench/e2e/run.mjs starts it as a child process,
// so receiving webhooks does not share an event loop with the load generator): one
// node:http server on loopback that answers 204 and keeps, per lead, the time the
// first webhook about it arrived, plus a count of receipts and of distinct webhook-ids.
// The parent talks over IPC:
//   → { cmd: 'first' }  ← { first: [[leadId, receivedAtMs, label], ...] }
//   → { cmd: 'count' }  ← { count: { receipts, ids } }
import { createServer } from 'node:http';

const firstByLead = new Map();
const ids = new Set();
let receipts = 0;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    receipts++;
    ids.add(req.headers['webhook-id'] ?? '');
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!firstByLead.has(body.lead_id)) firstByLead.set(body.lead_id, [at, body.activity_label]);
    } catch {}
    res.statusCode = 204;
    res.end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

process.on('message', (msg) => {
  if (msg.cmd === 'first') {
    process.send({ first: [...firstByLead].map(([lead, [at, label]]) => [lead, at, label]) });
  } else if (msg.cmd === 'count') {
    process.send({ count: { receipts, ids: ids.size } });
  }
});
process.on('disconnect', () => process.exit(0));
