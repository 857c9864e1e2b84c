import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Process-level tests: the built `pnpm start` supervisor and the four built
 * services, on free ports, against a test database and the local Redis.
 * (`pnpm test` builds first; run alone, a test builds what is missing.)
 */

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES = ['intake', 'api', 'playbook-worker', 'webhook-worker'] as const;

export function ensureBuilt(): void {
  const built = [
    join(ROOT, 'scripts', 'dist', 'start.js'),
    join(ROOT, 'scripts', 'dist', 'leadhook.js'),
    ...SERVICES.map((name) => join(ROOT, 'services', name, 'dist', 'main.js')),
  ];
  if (built.every((file) => existsSync(file))) return;
  const result = spawnSync('npx', ['tsc', '-b', 'tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `probe` gives a value (errors count as "not yet"). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until a process's /readyz answers 200 with every check ok, and returns
 * the checks. Intake is ready without Redis (it accepts leads while Redis is
 * away), so a 200 alone does not say its Redis connection is up yet.
 */
export async function waitForAllChecks(port: number): Promise<Record<string, string>> {
  return waitFor(async () => {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    if (response.status !== 200) return undefined;
    const { checks } = (await response.json()) as { checks: Record<string, string> };
    return Object.values(checks).every((c) => c === 'ok') ? checks : undefined;
  });
}

export interface Ports {
  INTAKE_PORT: number;
  API_PORT: number;
  PLAYBOOK_WORKER_PORT: number;
  WEBHOOK_WORKER_PORT: number;
}

export interface Service {
  ports: Ports;
  process: ChildProcess;
  /** Everything the supervisor and its children printed. */
  output(): string;
  /** Resolves with the supervisor's exit code. */
  exited: Promise<number | null>;
}

/** Runs `pnpm start`'s supervisor (scripts/dist/start.js) and waits until all four are ready. */
export async function startService(env: Record<string, string>): Promise<Service> {
  const ports: Ports = {
    INTAKE_PORT: await freePort(),
    API_PORT: await freePort(),
    PLAYBOOK_WORKER_PORT: await freePort(),
    WEBHOOK_WORKER_PORT: await freePort(),
  };
  let output = '';
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'dist', 'start.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports.INTAKE_PORT}`,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (const port of Object.values(ports)) await waitForAllChecks(port);
  return { ports, process: child, output: () => output, exited };
}

/**
 * `leadhook account create NAME` through the built CLI. Asynchronous on purpose:
 * a spawnSync longer than the servers' keep-alive timeout (5 s, easily reached on
 * a loaded machine) blocks the event loop while they close the idle sockets of
 * fetch's pool, and the next request goes out on a closed one ("other side closed").
 */
export async function createAccount(
  databaseUrl: string,
  name: string,
): Promise<{ account_id: string; api_key: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'scripts', 'dist', 'leadhook.js'), 'account', 'create', name],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  return JSON.parse(stdout) as { account_id: string; api_key: string };
}
