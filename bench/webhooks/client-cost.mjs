#!/usr/bin/env node
// The CPU one webhook attempt costs the sending process: packages/webhooks'
// deliver() (got, the SSRF-guarded agent, signing, the bounded read of the answer)
// against a bare node:http client posting the same signed bytes over a keep-alive
// agent, in the same process, to the same 204 server (bench/webhooks/subscriber.mjs,
// a child process), interleaved round by round. No PostgreSQL, no Redis: this is
// the HTTP side of bench/webhooks/run.mjs's "CPU per delivery: worker".
//
// Usage: node bench/webhooks/client-cost.mjs [--requests 10000] [--in-flight 32] [--rounds 3]
//        (pnpm build first)
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { ask, benchArgs, root } from '../lib.mjs';

const args = benchArgs({ requests: 10_000, 'in-flight': 32, rounds: 3 });
const { requests, 'in-flight': inFlight, rounds } = args;

const { deliver, sign } = await import(join(root, 'packages/webhooks/dist/index.js'));

const subscriber = fork(join(root, 'bench/webhooks/subscriber.mjs'), ['1']);
const [port] = await ask(subscriber, 'hello', 'ports');
await ask(subscriber, 'reset', 'reset', { keep: false });
const url = `http://127.0.0.1:${port}/hook`;
const secrets = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'];
const body = JSON.stringify({
  type: 'event',
  event: 'message_sent',
  data: { lead: { id: 'lead_01', first_name: 'Ada', note: 'x'.repeat(500) } },
});

const viaDeliver = (i) =>
  deliver({ url, body, id: `act_${i}`, secrets, timeoutMs: 15_000, allowPrivateTargets: true });

const agent = new Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' });
const viaNodeHttp = (i) =>
  new Promise((resolve, reject) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'webhook-id': `act_${i}`,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign({ secrets, id: `act_${i}`, timestamp, body }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

async function measure(send) {
  let next = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < requests) {
        const result = await send(next++);
        if (!(result === 204 || result?.ok)) failed++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return {
    cpuUs: (cpu.user + cpu.system) / requests,
    perSecond: requests / ((performance.now() - t0) / 1000),
    failed,
  };
}

// Warm both paths (JIT, pooled connections) before measuring.
await measure(viaDeliver);
await measure(viaNodeHttp);
const rows = [];
for (let round = 1; round <= rounds; round++) {
  const d = await measure(viaDeliver);
  const n = await measure(viaNodeHttp);
  if (d.failed || n.failed)
    throw new Error(`failed requests: deliver ${d.failed}, node:http ${n.failed}`);
  rows.push({ round, d, n });
}
subscriber.disconnect();

process.stdout.write(
  `${requests} requests per run, ${inFlight} in flight, one 204 server; CPU of this process per request\n` +
    '| round | deliver() µs CPU | deliver() req/s | node:http µs CPU | node:http req/s | deliver ÷ node:http CPU |\n' +
    '|---|---|---|---|---|---|\n' +
    rows
      .map(
        ({ round, d, n }) =>
          `| ${round} | ${d.cpuUs.toFixed(0)} | ${d.perSecond.toFixed(0)} | ${n.cpuUs.toFixed(0)} | ` +
          `${n.perSecond.toFixed(0)} | ${(d.cpuUs / n.cpuUs).toFixed(2)} |`,
      )
      .join('\n') +
    '\n',
);
