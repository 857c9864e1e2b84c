import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { HANDLES_SIGNALS } from '@leadhook/observability';
import { createTestDatabase, type TestDatabase } from '@leadhook/testkit';
import {
  ensureBuilt,
  freePorts,
  OPERATOR_PORT_SETTING,
  operatorPorts,
  PORT_SETTING,
  portSettings,
  ROOT,
  SERVICES,
  waitFor,
  waitForAllChecks,
} from './support.js';

/**
 * `pnpm start` for real: the built supervisor runs the four built services, each
 * answers /healthz, /readyz and /metrics on its operators' port (intake's and the
 * api's internal ones; their public ports keep /healthz and a bare /readyz), and
 * SIGTERM stops them all
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

/** Free ports for the four processes, and the environment they are started with. */
async function startEnv(queuePrefix: string) {
  const ports = await freePorts();
  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    QUEUE_PREFIX: `${queuePrefix}-${process.pid}`,
    LOG_LEVEL: 'info',
    ...portSettings(ports),
  };
  return { ports, env };
}

describe('pnpm start (the built supervisor)', () => {
  it('runs the four processes, each healthy and ready, and stops them all on SIGTERM', async () => {
    const { ports, env } = await startEnv('test-start');
    const supervisor = spawnCollecting(process.execPath, [SUPERVISOR], env);

    for (const port of operatorPorts(ports)) {
      // The playbook worker also reports whether the provider took its credentials.
      const own = port === ports.PLAYBOOK_WORKER_PORT ? { provider_credentials: 'ok' } : {};
      expect(await waitForAllChecks(port)).toEqual({ postgres: 'ok', redis: 'ok', ...own });
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toContain('leadhook_process_cpu_user_seconds_total');
    }
    for (const port of Object.values(ports)) {
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    }
    // Intake's and the api's public ports: readiness without detail, no metrics
    // (docs/operations.md, "What to expose").
    for (const port of [ports.INTAKE_PORT, ports.API_PORT]) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({
        status: 200,
        body: { status: 'ok' },
      });
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    }
    // Not a terminal: every line on stdout is one JSON object.
    const lines = supervisor
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();

    supervisor.child.kill('SIGTERM');
    expect((await supervisor.exited).code).toBe(0);
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    }
  }, 60_000);
});

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** What a test spawned: killed after it if still running, so a failure leaves nothing behind. */
const spawned: Array<{ child: ChildProcess; group: boolean }> = [];
afterEach(() => {
  for (const { child, group } of spawned.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      // The services of a group's pnpm start, in groups of their own, stop when the supervisor is gone.
      if (group) process.kill(-(child.pid ?? 0), 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/**
 * `command args` from the repository root with everything it prints collected;
 * `group`: in a process group of its own, as a terminal gives a foreground
 * command; `ipc`: with the IPC channel the supervisor opens; `onOutput` sees
 * the output so far after each chunk.
 */
function spawnCollecting(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { group?: boolean; ipc?: boolean; onOutput?: (output: string) => void } = {},
) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    detached: options.group ?? false,
  });
  spawned.push({ child, group: options.group ?? false });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    options.onOutput?.(output);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** The built supervisor of `pnpm start`, run by node. */
const SUPERVISOR = join(ROOT, 'scripts', 'dist', 'start.js');

/** Whether something listens on `port` (every port must be closed when pnpm start exits). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('pnpm start (the command, through pnpm)', () => {
  it.each([
    ['Ctrl-C in a terminal: SIGINT to the whole foreground group', 'SIGINT', 'group'],
    ['a service manager or kill <pid>: SIGTERM to pnpm alone', 'SIGTERM', 'pnpm'],
    ['SIGINT to pnpm alone', 'SIGINT', 'pnpm'],
  ] as const)(
    '%s drains every process; pnpm exits 0 once every port is closed',
    async (_how, signal, target) => {
      const { ports, env } = await startEnv('test-pnpm-start');
      const pnpm = spawnCollecting('pnpm', ['start'], env, { group: true });
      for (const port of operatorPorts(ports)) await waitForAllChecks(port, 60_000);

      if (target === 'group') process.kill(-(pnpm.child.pid ?? 0), signal);
      else pnpm.child.kill(signal);
      const exit = await pnpm.exited;
      const open = await Promise.all(Object.values(ports).map((port) => listening(port)));

      expect({ exit, open }).toEqual({
        exit: { code: 0, signal: null },
        open: Object.values(ports).map(() => false),
      });
      expect(pnpm.output()).not.toContain('ELIFECYCLE');
      expect(pnpm.output()).not.toContain('killing');
      for (const service of ['intake', 'api', 'playbook-worker', 'webhook-worker']) {
        expect(pnpm.output()).toMatch(new RegExp(`"service":"${service}"[^\n]*"msg":"stopped"`));
        expect(pnpm.output()).toMatch(
          new RegExp(
            `"service":"supervisor"[^\n]*"child":"${service}","code":0,"signal":null[^\n]*"msg":"exited"`,
          ),
        );
      }
      expect(pnpm.output()).toMatch(
        /"service":"supervisor"[^\n]*"failed":\[\][^\n]*"msg":"stopped"/,
      );
    },
    120_000,
  );
});

describe('pnpm --filter <service> start (one process, as operators scale them)', () => {
  it.each(SERVICES)(
    '%s: SIGTERM to pnpm alone drains it; pnpm exits 0 once its port is closed',
    async (name) => {
      const { ports, env } = await startEnv(`test-filter-start-${name}`);
      const port = ports[PORT_SETTING[name]];
      const operatorPort = ports[OPERATOR_PORT_SETTING[name]];
      const pnpm = spawnCollecting('pnpm', ['--filter', `@leadhook/${name}`, 'start'], env, {
        group: true,
      });
      await waitForAllChecks(operatorPort, 60_000);
      pnpm.child.kill('SIGTERM');
      const exit = await pnpm.exited;
      expect({
        exit,
        open: await listening(port),
        operatorOpen: await listening(operatorPort),
      }).toEqual({
        exit: { code: 0, signal: null },
        open: false,
        operatorOpen: false,
      });
      expect(pnpm.output()).toMatch(new RegExp(`"service":"${name}"[^\\n]*"msg":"stopped"`));
      expect(pnpm.output()).not.toContain('ELIFECYCLE');
    },
    60_000,
  );
});

describe('pnpm start killed (SIGKILL, the OOM killer)', () => {
  it('leaves nothing running: the four, in process groups of their own, stop by themselves', async () => {
    const { ports, env } = await startEnv('test-start-killed');
    const supervisor = spawnCollecting(process.execPath, [SUPERVISOR], env);
    for (const port of operatorPorts(ports)) await waitForAllChecks(port, 60_000);
    const pids = [
      ...supervisor.output().matchAll(/"service":"supervisor","child":"[a-z-]+","pid":(\d+)/g),
    ].map((m) => Number(m[1]));
    expect(pids).toHaveLength(4);

    supervisor.child.kill('SIGKILL');
    // The output pipe went with the supervisor: what is left to see is the processes.
    const gone = (pid: number) => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    await waitFor(async () => (pids.every(gone) ? true : undefined), 30_000);
    const open = await Promise.all(Object.values(ports).map((port) => listening(port)));
    expect(open).toEqual(Object.values(ports).map(() => false));
  }, 90_000);
});

describe('a process stopped while it is still starting', () => {
  it.each(SERVICES)(
    '%s, sent SIGTERM the moment it handles it, drains: its "stopped" line, exit 0, its port closed',
    async (name) => {
      const { ports, env } = await startEnv(`test-starting-${name}`);
      // With the IPC channel the supervisor opens: the process says on it when
      // SIGTERM drains it, before it connects and listens.
      const { child, output, exited } = spawnCollecting(
        process.execPath,
        [join(ROOT, 'services', name, 'dist', 'main.js')],
        env,
        { ipc: true },
      );
      child.on('message', (message) => {
        if (message === HANDLES_SIGNALS) child.kill('SIGTERM');
      });
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(output()).toMatch(/"msg":"shutting down"/);
      expect(output()).toMatch(/"msg":"stopped"/);
      expect(await listening(ports[PORT_SETTING[name]])).toBe(false);
    },
    60_000,
  );

  it.each(SERVICES)(
    '%s, its port taken, says it failed to start and exits 1',
    async (name) => {
      const { ports, env } = await startEnv(`test-port-taken-${name}`);
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(ports[PORT_SETTING[name]], resolve));
      try {
        const { output, exited } = spawnCollecting(
          process.execPath,
          [join(ROOT, 'services', name, 'dist', 'main.js')],
          env,
        );
        expect((await exited).code).toBe(1);
        expect(output()).toMatch(
          /"level":"fatal"[^\n]*"code":"EADDRINUSE"[^\n]*"msg":"failed to start"/,
        );
        expect(output()).not.toContain('"msg":"stopped"');
      } finally {
        taken.close();
      }
    },
    60_000,
  );

  it('pnpm start, stopped as soon as it has spawned the four, drains every one of them', async () => {
    // What failed on a busy machine: the supervisor forwarded SIGTERM while a
    // child was still loading its modules, and it died without draining.
    const { ports, env } = await startEnv('test-starting-all');
    let signalled = false;
    const supervisor = spawnCollecting(process.execPath, [SUPERVISOR], env, {
      onOutput: (output) => {
        if (!signalled && (output.match(/"msg":"started"/g) ?? []).length === SERVICES.length) {
          signalled = true;
          supervisor.child.kill('SIGTERM');
        }
      },
    });
    const { code } = await supervisor.exited;
    const output = supervisor.output();
    if (code !== 0) throw new Error(`pnpm start exited ${code}:\n${output}`);
    for (const service of SERVICES) {
      expect(output).toMatch(new RegExp(`"service":"${service}"[^\\n]*"msg":"stopped"`));
    }
    const open = await Promise.all(Object.values(ports).map((port) => listening(port)));
    expect(open).toEqual(Object.values(ports).map(() => false));
  }, 60_000);
});
