import { connect } from 'node:net';
import { type Service, type ServiceName, startService, waitFor } from '../support.js';
import { LeadStream, leadBody } from './load.js';
import { Scenario } from './scenario.js';
import { SHUTDOWN_TIMEOUT_MS } from './stack.js';
import { CLEAN, settle } from './verify.js';

/**
 * SIGTERM under load (issue 6). The bound: a process stops within
 * SHUTDOWN_TIMEOUT_MS (packages/config; 10 s here), exiting 0 when it drained in
 * time; `pnpm start`'s supervisor within SHUTDOWN_TIMEOUT_MS + 2 s (it kills a
 * child that has not exited by then). Intake stops accepting and answers the
 * requests it has; workers finish or hand back their jobs; nothing is lost.
 */

const RATE = 100;
/** Leads accepted before the signal: the work in flight when it lands (enrollments, steps, deliveries). */
const IN_FLIGHT = 50;
const SETTLE_MS = 600_000;
/** Process exit and the test's own event loop on a busy machine, beyond the bound. */
const EXIT_SLACK_MS = 1500;

let scenario: Scenario;
let supervisor: Service | undefined;

beforeAll(async () => {
  scenario = await Scenario.startOnTestDatabase('sigterm');
}, 300_000);

afterAll(async () => {
  // SIGTERM, not SIGKILL: a killed supervisor would leave its four children running.
  if (supervisor && supervisor.process.exitCode === null) {
    supervisor.process.kill('SIGTERM');
    await supervisor.exited;
  }
  await scenario?.close();
}, 120_000);

/**
 * A POST in flight: its headers read by the server (it answered `100 Continue`)
 * and half its body sent, until `finish` sends the rest. Resolves with the raw
 * answer. (A connection whose request the server has not begun to read is idle
 * to Node, and closing a server closes idle connections: that is the client's
 * race, not an in-flight request.)
 */
function inFlightLead(port: number, path: string, n: number) {
  const body = JSON.stringify(leadBody(n, 'inflight'));
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let onAnswer = () => {};
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    answer += chunk;
    onAnswer();
  });
  const ended = new Promise<string>((resolve, reject) => {
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  const started = new Promise<void>((resolve) => {
    onAnswer = () => {
      if (answer.startsWith('HTTP/1.1 100')) {
        onAnswer = () => {};
        socket.write(body.slice(0, half), () => resolve());
      }
    };
    socket.once('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
    });
  });
  return {
    started,
    finish: () => {
      socket.write(body.slice(half));
      return ended;
    },
  };
}

/** Sends SIGTERM and resolves with how and how fast it exited. */
async function terminate(stop: (signal: NodeJS.Signals) => Promise<{ code: number | null }>) {
  const started = Date.now();
  const { code } = await stop('SIGTERM');
  return { code, ms: Date.now() - started };
}

it('each process drains on SIGTERM under load within SHUTDOWN_TIMEOUT_MS and nothing is lost', async () => {
  const { stack, fixture } = scenario;
  const accepted: string[] = [];
  for (const name of ['intake', 'playbook-worker', 'webhook-worker', 'api'] as ServiceName[]) {
    const stream = scenario.stream(`term-${name}`, RATE);
    stream.start();
    await stream.untilAccepted(IN_FLIGHT);
    const proc = stack.get(name);
    // Load goes on while the process drains, and stops once it has exited.
    if (name === 'intake') {
      // A request in flight when the signal comes is answered, not dropped.
      const inFlight = inFlightLead(proc.port, fixture.postPath, 900_000);
      await inFlight.started;
      const exit = terminate((signal) => proc.stop(signal));
      // It stops accepting connections (however long the signal takes to be
      // handled on a busy machine), while the request it has is still open...
      await waitFor(() =>
        fetch(`http://127.0.0.1:${proc.port}/healthz`).then(
          () => undefined,
          () => true,
        ),
      );
      // ...and answers the one it had.
      const answer = await inFlight.finish();
      const final = answer.slice(answer.lastIndexOf('HTTP/1.1 '));
      expect(final).toMatch(/^HTTP\/1\.1 201 /);
      accepted.push(
        (JSON.parse(final.slice(final.indexOf('\r\n\r\n') + 4)) as { lead_id: string }).lead_id,
      );
      const { code, ms } = await exit;
      expect(code).toBe(0);
      expect(ms).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS + EXIT_SLACK_MS);
    } else {
      const { code, ms } = await terminate((signal) => proc.stop(signal));
      expect(code).toBe(0);
      expect(ms).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS + EXIT_SLACK_MS);
    }
    await stream.stop();
    await stack.start(name);
    if (name !== 'intake') expect(stream.tally()).toEqual({ 201: stream.count });
    accepted.push(...stream.accepted);
  }

  await scenario.settle(SETTLE_MS);
  expect(await scenario.findings(accepted)).toEqual(CLEAN);
}, 900_000);

it('pnpm start stops all four on SIGTERM under load within SHUTDOWN_TIMEOUT_MS + 2 s, exit 0, nothing lost', async () => {
  const { stack, fixture, subscriber } = scenario;
  await stack.killAll();
  supervisor = await startService(stack.env);
  const service = supervisor;
  const base = `http://127.0.0.1:${service.ports.INTAKE_PORT}`;
  const stream = new LeadStream({
    url: () => `${base}${fixture.postPath}`,
    rate: RATE,
    tag: 'sup',
  });
  stream.start();
  // Twice the first test's: the four processes stop together.
  await stream.untilAccepted(2 * IN_FLIGHT);
  const started = Date.now();
  service.process.kill('SIGTERM');
  const code = await service.exited;
  const ms = Date.now() - started;
  await stream.stop();
  if (code !== 0) throw new Error(`supervisor exited ${code}:\n${service.output().slice(-20_000)}`);
  expect(ms).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS + 2000 + EXIT_SLACK_MS);
  for (const port of Object.values(service.ports)) {
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }

  // Started again, the service finishes what the stopped one left.
  supervisor = await startService(stack.env, service.ports);
  try {
    await settle(stack.options.databaseUrl, subscriber, SETTLE_MS);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${supervisor.output().slice(-20_000)}`);
  }
  expect(await scenario.findings(stream.accepted)).toEqual(CLEAN);
  supervisor.process.kill('SIGTERM');
  expect(await supervisor.exited).toBe(0);
}, 900_000);
