import { createRedis } from '@leadhook/queue';
import {
  type ApiClient,
  apiClient,
  createAccount,
  freePort,
  SERVICES,
  type ServiceName,
  type ServiceProcess,
  startProcess,
  waitFor,
} from '../support.js';

/**
 * The four services run as separate processes (as operators run and scale them)
 * against one PostgreSQL and one Redis, each on a port of its own that a
 * restarted copy keeps; the settings every fault test shares.
 */

/**
 * SIGTERM drain bound of every process in these tests (SHUTDOWN_TIMEOUT_MS,
 * packages/config): the production default. At 5 s a webhook worker handing
 * back its attempts to a hung subscriber overran it on a loaded CI machine.
 */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/** How long each process started with others (Stack.startTogether) may take to be ready. */
export const STARTING_TOGETHER_READY_MS = 180_000;

/** The playbook of every fault test: short steps, so a lead is worked in about a second. */
export const PLAYBOOK_STEPS = [
  { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, your quote is ready.' },
  { type: 'call', delay_seconds: 1 },
] as const;

/** What the test subscription selects: a lead's first, middle and last activity. */
export const SELECTED = { events: ['started', 'call_attempted'], outcomes: ['unreachable'] };
export const SELECTED_LABELS = [...SELECTED.events, ...SELECTED.outcomes];

export interface StackOptions {
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  /** Extra settings for every process. */
  env?: Record<string, string>;
}

export class Stack {
  readonly env: Record<string, string>;
  /** The running copies of each service (index 0 first). */
  readonly copies = new Map<ServiceName, ServiceProcess[]>();
  private readonly ports = new Map<string, number>();

  constructor(readonly options: StackOptions) {
    this.env = {
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      QUEUE_PREFIX: options.queuePrefix,
      CONTACT_HOURS: '00:00-24:00',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Short, and long enough to outlast a restart of either server.
      WEBHOOK_RETRY_SCHEDULE: '0,500ms,1s,2s,3s,5s,5s,5s,10s,10s,10s,10s',
      WEBHOOK_TIMEOUT_MS: '5000',
      INTAKE_RATE_LIMIT_PER_SOURCE: '0',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: 'warn',
      ...options.env,
    };
  }

  /** The port of copy `index` of `name`, the same across restarts. */
  port(name: ServiceName, index = 0): Promise<number> {
    return this.portOf(`${name}#${index}`);
  }

  /** Copy `index`'s internal port (intake, api), the same across restarts. */
  internalPort(name: ServiceName, index = 0): Promise<number> {
    return this.portOf(`${name}#${index}:internal`);
  }

  private async portOf(key: string): Promise<number> {
    let port = this.ports.get(key);
    if (port === undefined) {
      port = await freePort();
      this.ports.set(key, port);
    }
    return port;
  }

  get intakeBase(): string {
    return `http://127.0.0.1:${this.ports.get('intake#0')}`;
  }

  /** Intake's internal port: /readyz with its checks, /metrics. */
  get intakeInternalBase(): string {
    return `http://127.0.0.1:${this.ports.get('intake#0:internal')}`;
  }

  /**
   * Starts copy `index` of `name` (again) and waits until it is ready, for
   * `readyTimeoutMs` (startProcess's 60 s unless given).
   */
  async start(name: ServiceName, index = 0, readyTimeoutMs?: number): Promise<ServiceProcess> {
    const port = await this.port(name, index);
    const intakePort = await this.port('intake');
    const proc = await startProcess(
      name,
      port,
      { ...this.env, PUBLIC_BASE_URL: `http://127.0.0.1:${intakePort}` },
      {
        internalPort: await this.internalPort(name, index),
        ...(readyTimeoutMs === undefined ? {} : { readyTimeoutMs }),
      },
    );
    const list = this.copies.get(name) ?? [];
    list[index] = proc;
    this.copies.set(name, list);
    return proc;
  }

  /**
   * Starts copy `index` of each of `names` at once and waits until all are ready:
   * the processes do not need each other to start, and one after the other their
   * starts (mostly module loading) added up. Their ports are chosen first, one at
   * a time, so that each is chosen once. Starting together, each takes longer on
   * a busy machine than alone: each is given STARTING_TOGETHER_READY_MS.
   */
  async startTogether(names: readonly ServiceName[], index = 0): Promise<void> {
    await this.port('intake');
    for (const name of names) {
      await this.port(name, index);
      await this.internalPort(name, index);
    }
    const results = await Promise.allSettled(
      names.map((name) => this.start(name, index, STARTING_TOGETHER_READY_MS)),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  async startAll(): Promise<void> {
    await this.startTogether(SERVICES);
  }

  get(name: ServiceName, index = 0): ServiceProcess {
    const proc = this.copies.get(name)?.[index];
    if (!proc) throw new Error(`${name} #${index} was never started`);
    return proc;
  }

  /** Every process's output, for a failing test's message. */
  output(): string {
    return [...this.copies.values()]
      .flat()
      .map((p) => `--- ${p.name}:${p.port}\n${p.output().slice(-20_000)}`)
      .join('\n');
  }

  /** SIGKILLs whatever still runs. */
  async killAll(): Promise<void> {
    await Promise.all([...this.copies.values()].flat().map((p) => p.stop('SIGKILL')));
  }

  /** Kills every process and deletes the queues' keys (the machine's Redis is shared). */
  async dispose(): Promise<void> {
    await this.killAll();
    const redis = createRedis(this.options.redisUrl);
    try {
      await waitFor(async () => (redis.status === 'ready' ? true : undefined), 10_000);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(
          cursor,
          'MATCH',
          `${this.options.queuePrefix}:*`,
          'COUNT',
          1000,
        );
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
}

export interface Fixture {
  accountId: string;
  api: ApiClient;
  playbookId: string;
  sourceId: string;
  /** The seller's URL, relative to the intake's base. */
  postPath: string;
  subscriptionId: string;
}

/**
 * An account (the CLI), the playbook, a source and a subscription to `hookUrl`
 * selecting SELECTED (the management API on `apiPort`).
 */
export async function createFixture(
  databaseUrl: string,
  apiPort: number,
  hookUrl: string,
): Promise<Fixture> {
  const { account_id: accountId, api_key: apiKey } = await createAccount(databaseUrl, 'Faults');
  const api = apiClient(apiPort, apiKey);
  const json = async (response: Promise<Response>) => {
    const r = await response;
    const body = (await r.json()) as Record<string, unknown>;
    if (r.status !== 201) throw new Error(`API answered ${r.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const playbook = await json(
    api('/playbooks', { method: 'POST', body: { name: 'Faults', steps: PLAYBOOK_STEPS } }),
  );
  const source = await json(
    api('/marketing_sources', {
      method: 'POST',
      body: { name: 'Load', source_type: 'vendor', playbook_id: playbook.id },
    }),
  );
  const subscription = await json(
    api(`/playbooks/${playbook.id}/subscriptions`, {
      method: 'POST',
      body: { url: hookUrl, ...SELECTED },
    }),
  );
  return {
    accountId,
    api,
    playbookId: String(playbook.id),
    sourceId: String(source.id),
    postPath: new URL(String(source.post_url)).pathname,
    subscriptionId: String(subscription.id),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
