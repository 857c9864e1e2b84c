import {
  overTheCap,
  statusesIn,
  trickleBody,
  trickleHeaders,
} from '@leadhook/observability/testing';
import { createTestDatabase, type TestDatabase } from '@leadhook/testkit';
import { ensureBuilt, freePort, type ServiceProcess, startProcess } from './support.js';

/**
 * The built intake and api as operators run them: what each port serves
 * (docs/operations.md, "What to expose"), and the HTTP_* limits on slow and
 * many clients (docs/operations.md, "Settings"), with small values. Margins are
 * generous: without the limits, Node holds such clients for minutes.
 */

const HEADERS_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1500;
const MAX_CONNECTIONS = 3;
/** Node checks the timeouts every second; the rest is a loaded machine's slack. */
const SLACK_MS = 1000 + 3000;

let db: TestDatabase;
let intake: ServiceProcess;
let api: ServiceProcess;

beforeAll(async () => {
  ensureBuilt();
  db = await createTestDatabase();
  const intakePort = await freePort();
  const env = {
    DATABASE_URL: db.url,
    QUEUE_PREFIX: `e2e-ports-${process.pid}`,
    PUBLIC_BASE_URL: `http://127.0.0.1:${intakePort}`,
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  };
  [intake, api] = await Promise.all([
    startProcess('intake', intakePort, env),
    startProcess('api', await freePort(), env),
  ]);
}, 120_000);

afterAll(async () => {
  await intake?.stop();
  await api?.stop();
  await db?.drop();
});

/** Cut `timeoutMs` after it opened (give or take SLACK_MS), a 408 its only answer. */
function expectCutWith408(ended: { afterMs: number; received: string }, timeoutMs: number) {
  expect(ended.afterMs).toBeGreaterThanOrEqual(timeoutMs - 50);
  expect(ended.afterMs).toBeLessThan(timeoutMs + SLACK_MS);
  expect(statusesIn(ended.received)).toEqual([408]);
}

const POST_PATH = '/marketing_sources/acc_00000000000000000000000000/some-key';

describe('intake', () => {
  // First: no other client of this file holds a connection to the public port yet.
  it('closes the connection over HTTP_MAX_CONNECTIONS unanswered, and keeps serving the others', async () => {
    const { first, extra, again } = await overTheCap(intake.port, MAX_CONNECTIONS);
    expect(first).toEqual([200, 200, 200]);
    expect(extra).toBeUndefined();
    expect(again).toEqual([200, 200, 200]);
  });

  it('closes a connection whose headers trickle in, soon after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const ended = await trickleHeaders(intake.port, { intervalMs: 50, path: POST_PATH });
    expectCutWith408(ended, HEADERS_TIMEOUT_MS);
  });

  it('cuts a lead body trickled after complete headers at HTTP_REQUEST_TIMEOUT_MS', async () => {
    const ended = await trickleBody(intake.port, { path: POST_PATH, intervalMs: 50 });
    // The body is read before the post URL is looked up: nothing but the 408.
    expectCutWith408(ended, REQUEST_TIMEOUT_MS);
  });

  it('serves no metrics and no readiness detail on its public port', async () => {
    const base = `http://127.0.0.1:${intake.port}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const ready = await fetch(`${base}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('serves them on its internal port', async () => {
    const base = `http://127.0.0.1:${intake.operatorPort}`;
    expect(intake.operatorPort).not.toBe(intake.port);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^leadhook_intake_leads_total\{/m);
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok' },
    });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // And nothing of intake's own.
    expect((await fetch(`${base}${POST_PATH}`, { method: 'POST' })).status).toBe(404);
  });
});

describe('api', () => {
  it('closes a connection whose headers trickle in, soon after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const ended = await trickleHeaders(api.port, { intervalMs: 50, path: '/api/v1/account' });
    expectCutWith408(ended, HEADERS_TIMEOUT_MS);
  });

  it('serves metrics and readiness detail on its internal port only', async () => {
    const publicBase = `http://127.0.0.1:${api.port}`;
    expect((await fetch(`${publicBase}/metrics`)).status).toBe(404);
    expect(await (await fetch(`${publicBase}/readyz`)).json()).toEqual({ status: 'ok' });
    const internalBase = `http://127.0.0.1:${api.operatorPort}`;
    expect(await (await fetch(`${internalBase}/metrics`)).text()).toMatch(
      /^leadhook_http_requests_total\{/m,
    );
    expect(await (await fetch(`${internalBase}/readyz`)).json()).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok' },
    });
    expect((await fetch(`${internalBase}/api/v1/openapi.json`)).status).toBe(404);
  });
});
