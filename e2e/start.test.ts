import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { ensureBuilt, freePort, ROOT, waitForAllChecks } from './support.js';

/**
 * `pnpm start` for real: the built supervisor runs the four built services, each
 * answers /healthz, /readyz and /metrics on its port, and SIGTERM stops them all
 * with exit 0. (`pnpm test` builds first; run alone, this builds what is missing.)
 */

let db: TestDatabase;

beforeAll(async () => {
  ensureBuilt();
  db = await createTestDatabase();
}, 240_000);

afterAll(async () => {
  await db?.drop();
});

describe('pnpm start (the built supervisor)', () => {
  let supervisor: ChildProcess | undefined;
  afterEach(() => {
    if (supervisor && supervisor.exitCode === null) supervisor.kill('SIGKILL');
  });

  it('runs the four processes, each healthy and ready, and stops them all on SIGTERM', async () => {
    const ports = {
      INTAKE_PORT: await freePort(),
      API_PORT: await freePort(),
      PLAYBOOK_WORKER_PORT: await freePort(),
      WEBHOOK_WORKER_PORT: await freePort(),
    };
    let output = '';
    supervisor = spawn(process.execPath, [join(ROOT, 'scripts', 'dist', 'start.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        QUEUE_PREFIX: `test-start-${process.pid}`,
        LOG_LEVEL: 'info',
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    supervisor.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    supervisor.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => supervisor?.once('exit', resolve));

    for (const port of Object.values(ports)) {
      expect(await waitForAllChecks(port)).toEqual({ postgres: 'ok', redis: 'ok' });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toContain('leadhook_process_cpu_user_seconds_total');
    }
    // Not a terminal: every line on stdout is one JSON object.
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();

    supervisor.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    }
  }, 60_000);
});
