import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LeadFieldName } from '@leadhook/contracts';
import {
  createTestDatabase,
  freePort,
  validLead as sharedValidLead,
  waitFor as sharedWaitFor,
  type TestDatabase,
} from '@leadhook/testkit';

export { freePort };

/**
 * Process-level tests: the built `pnpm start` supervisor and the four built
 * services, on free ports, against a test database and the local Redis.
 * (`pnpm test` builds first; run alone, a test builds what is missing.)
 */

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVICES = ['intake', 'api', 'playbook-worker', 'webhook-worker'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The setting that names each service's HTTP port. */
export const PORT_SETTING = {
  intake: 'INTAKE_PORT',
  api: 'API_PORT',
  'playbook-worker': 'PLAYBOOK_WORKER_PORT',
  'webhook-worker': 'WEBHOOK_WORKER_PORT',
} as const satisfies Record<ServiceName, keyof Ports>;

/**
 * The setting that names each service's operators' port, where /metrics and
 * /readyz with its checks are (docs/operations.md, "What to expose"): intake's
 * and the api's internal ports; a worker's one port.
 */
export const OPERATOR_PORT_SETTING = {
  ...PORT_SETTING,
  intake: 'INTAKE_INTERNAL_PORT',
  api: 'API_INTERNAL_PORT',
} as const satisfies Record<ServiceName, keyof Ports>;

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

/**
 * The shared waitFor with the patience of a process-level test: 30 s by default,
 * polled every 200 ms, and an error (a process not listening yet) is "not yet".
 */
export function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  return sharedWaitFor(probe, { timeoutMs, intervalMs: 200, retryErrors: true });
}

/**
 * California has no contact rule of its own (CONTACT_HOURS alone applies), and a
 * San Francisco number.
 */
const CALIFORNIA = {
  phone: '(415) 555-0100',
  current_residence_address: '1 Market St',
  current_residence_city: 'San Francisco',
  current_residence_state: 'CA',
  current_residence_zip: '94105',
};

export type LeadBody = Record<LeadFieldName, string> & Record<string, string>;

/**
 * The shared valid lead (@leadhook/testkit) in California, every value a string
 * (as a form posts it). Override what a test is about: a phone of its own (the
 * same phone twice is a duplicate), the values a leak search looks for.
 */
export function validLead(overrides: Record<string, string> = {}): LeadBody {
  const lead = sharedValidLead({ ...CALIFORNIA, ...overrides });
  return Object.fromEntries(Object.entries(lead).map(([k, v]) => [k, String(v)])) as LeadBody;
}

/**
 * Waits until a process's /readyz answers 200 with every check ok, and returns
 * the checks. Intake is ready without Redis (it accepts leads while Redis is
 * away), so a 200 alone does not say its Redis connection is up yet.
 */
export async function waitForAllChecks(
  port: number,
  timeoutMs = 30_000,
): Promise<Record<string, string>> {
  return waitFor(async () => {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    if (response.status !== 200) return undefined;
    const { checks } = (await response.json()) as { checks: Record<string, string> };
    return Object.values(checks).every((c) => c === 'ok') ? checks : undefined;
  }, timeoutMs);
}

export interface Ports {
  INTAKE_PORT: number;
  API_PORT: number;
  INTAKE_INTERNAL_PORT: number;
  API_INTERNAL_PORT: number;
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

/** A free port for each of the four processes (two each for intake and the api). */
export async function freePorts(): Promise<Ports> {
  return {
    INTAKE_PORT: await freePort(),
    API_PORT: await freePort(),
    INTAKE_INTERNAL_PORT: await freePort(),
    API_INTERNAL_PORT: await freePort(),
    PLAYBOOK_WORKER_PORT: await freePort(),
    WEBHOOK_WORKER_PORT: await freePort(),
  };
}

/** Each process's operators' port (its /readyz with checks, its /metrics). */
export function operatorPorts(ports: Ports): number[] {
  return SERVICES.map((name) => ports[OPERATOR_PORT_SETTING[name]]);
}

/** The port settings, as environment variables. */
export function portSettings(ports: Ports): Record<string, string> {
  return Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)]));
}

/** Output kept per process by default: the tail is what explains a failure. */
const OUTPUT_LIMIT = 256 * 1024;

/**
 * Spawns a built script with stdout and stderr kept: the last `limit` characters
 * (Infinity: everything, for a test that searches the whole output).
 */
function spawnCaptured(
  script: string,
  env: Record<string, string>,
  limit = OUTPUT_LIMIT,
): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2 * limit) output = output.slice(-limit);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

/** Until every /readyz check of the process whose operators' port is `port` is ok. */
export async function waitReady(port: number, timeoutMs = 30_000): Promise<void> {
  await waitForAllChecks(port, timeoutMs);
}

/**
 * Runs `pnpm start`'s supervisor (scripts/dist/start.js) and waits until all four
 * are ready. `ports` reuses the ports of an earlier run (a restart); `keepAllOutput`
 * keeps every line printed instead of the tail.
 */
export async function startService(
  env: Record<string, string>,
  ports?: Ports,
  options: { keepAllOutput?: boolean } = {},
): Promise<Service> {
  const chosen: Ports = ports ?? (await freePorts());
  const { child, output } = spawnCaptured(
    join(ROOT, 'scripts', 'dist', 'start.js'),
    {
      LOG_LEVEL: 'info',
      PUBLIC_BASE_URL: `http://127.0.0.1:${chosen.INTAKE_PORT}`,
      ...portSettings(chosen),
      ...env,
    },
    options.keepAllOutput ? Number.POSITIVE_INFINITY : OUTPUT_LIMIT,
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (const port of operatorPorts(chosen)) await waitForAllChecks(port, 60_000);
  return { ports: chosen, process: child, output, exited };
}

/** What {@link useStartedService} starts; both fields are set once its beforeAll has run. */
export interface StartedService {
  db: TestDatabase;
  service: Service;
}

/**
 * `pnpm start` on a test database of its own for the tests of one file (or
 * describe block): built if need be and started in a beforeAll, with a queue
 * prefix named after `name` and LOG_LEVEL warn unless `env` says otherwise;
 * stopped and the database dropped in an afterAll. Register it before the
 * file's own hooks, which may then use the running processes.
 */
export function useStartedService(
  name: string,
  env: Record<string, string> = {},
  options: { keepAllOutput?: boolean } = {},
): StartedService {
  const started = {} as StartedService;
  beforeAll(async () => {
    ensureBuilt();
    started.db = await createTestDatabase();
    started.service = await startService(
      {
        DATABASE_URL: started.db.url,
        QUEUE_PREFIX: `e2e-${name}-${process.pid}`,
        LOG_LEVEL: 'warn',
        ...env,
      },
      undefined,
      options,
    );
  }, 240_000);
  afterAll(async () => {
    await stopService(started.service);
    await started.db?.drop();
  });
  return started;
}

/** SIGTERMs `pnpm start`'s supervisor (if it still runs) and waits until it and its children exited. */
export async function stopService(service: Service | undefined): Promise<void> {
  if (!service || service.process.exitCode !== null) return;
  service.process.kill('SIGTERM');
  await service.exited;
}

/** One service process, run alone (`node services/<name>/dist/main.js`), as operators scale them. */
export interface ServiceProcess {
  name: ServiceName;
  port: number;
  /**
   * Where its /metrics and /readyz with checks are: intake's and the api's
   * internal port, a worker's `port`.
   */
  operatorPort: number;
  process: ChildProcess;
  output(): string;
  /** Resolves with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Still running? */
  running(): boolean;
  /** Sends `signal` and resolves once it has exited (at once if it already had). */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts one built service on `port` with `env` (on top of this process's) and,
 * unless told not to, waits until its /readyz answers 200 (for `readyTimeoutMs`,
 * 60 s by default). Intake and the api get `internalPort` as their internal
 * port, else a free one.
 */
export async function startProcess(
  name: ServiceName,
  port: number,
  env: Record<string, string>,
  options: { waitReady?: boolean; internalPort?: number; readyTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const operatorSetting = OPERATOR_PORT_SETTING[name];
  const operatorPort =
    operatorSetting === PORT_SETTING[name] ? port : (options.internalPort ?? (await freePort()));
  const { child, output } = spawnCaptured(join(ROOT, 'services', name, 'dist', 'main.js'), {
    LOG_LEVEL: 'warn',
    ...env,
    [operatorSetting]: String(operatorPort),
    [PORT_SETTING[name]]: String(port),
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const handle: ServiceProcess = {
    name,
    port,
    operatorPort,
    process: child,
    output,
    exited,
    running,
    async stop(signal = 'SIGTERM') {
      if (running()) child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady !== false) {
    try {
      await Promise.race([
        waitReady(operatorPort, options.readyTimeoutMs ?? 60_000),
        exited.then(({ code }) => {
          throw new Error(`exited (${code})`);
        }),
      ]);
    } catch (err) {
      let readyz = '';
      try {
        readyz = await (await fetch(`http://127.0.0.1:${operatorPort}/readyz`)).text();
      } catch {}
      child.kill('SIGKILL');
      throw new Error(
        `${name} on ${port} was not ready: ${(err as Error).message} ${readyz}\n${output()}`,
      );
    }
  }
  return handle;
}

/** `pnpm migrate` (the built scripts/dist/migrate.js) against `databaseUrl`. */
export function runMigrations(databaseUrl: string): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dist', 'migrate.js')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  if (result.status !== 0) throw new Error(`migrate failed:\n${result.stdout}${result.stderr}`);
}

export type ApiClient = (
  path: string,
  init?: { method?: string; body?: unknown },
) => Promise<Response>;

/** Calls the management API on `port` under /api/v1 with `apiKey`. */
export function apiClient(port: number, apiKey: string): ApiClient {
  return (path, init = {}) =>
    fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
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

/**
 * A playbook of `steps` and a vendor marketing source named `sourceName` that
 * enrolls its leads in it, created through the management API; answers the
 * source's post URL.
 */
export async function createPlaybookSource(
  api: ApiClient,
  playbook: { name: string; steps: unknown[] },
  sourceName: string,
): Promise<string> {
  const created = await api('/playbooks', { method: 'POST', body: playbook });
  const { id } = (await created.json()) as { id: string };
  const source = await api('/marketing_sources', {
    method: 'POST',
    body: { name: sourceName, source_type: 'vendor', playbook_id: id },
  });
  return ((await source.json()) as { post_url: string }).post_url;
}
