import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ActivityRecorder } from '@leadhook/activities';
import { loadConfig } from '@leadhook/config';
import { createAccount, createPrisma, newId, type PrismaClient } from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { createLogger, type Logger } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { waitFor } from '@leadhook/testkit';
import { generateSecret } from '@leadhook/webhooks';
import type { WorkerRuntime } from '@leadhook/worker-runtime';
import { Redis } from 'ioredis';
import type { WebhookComponentOptions, WebhookHandle } from '../webhook.component.js';
import { createWorker } from '../worker.js';

export { waitFor };

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface ReceivedRequest {
  at: number;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

/** A real local HTTP server standing in for a subscriber system. */
export class Subscriber {
  readonly received: ReceivedRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  answer: Answer = (_req, res) => {
    res.end('ok');
  };

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(answer?: Answer): Promise<Subscriber> {
    let self: Subscriber | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!self) return;
        const sub = self;
        const entry: ReceivedRequest = {
          at: Date.now(),
          url: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        sub.received.push(entry);
        sub.inFlight++;
        sub.maxInFlight = Math.max(sub.maxInFlight, sub.inFlight);
        res.on('close', () => {
          sub.inFlight--;
        });
        void Promise.resolve(sub.answer(entry, res)).catch(() => res.destroy());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new Subscriber(server, `http://127.0.0.1:${port}/hook`);
    if (answer) self.answer = answer;
    return self;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** Received activity ids, in arrival order. */
  ids(): string[] {
    return this.received.map((r) => String(r.headers['webhook-id']));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

export interface RunningWorker {
  runtime: WorkerRuntime;
  handle: WebhookHandle;
  recorder: ActivityRecorder;
  queues: QueueSet;
  prefix: string;
  /** The worker's health and metrics port. */
  port: number;
}

/**
 * One test file's world: a fresh database, an account with a playbook and a
 * source, factories for leads and subscriptions, and workers started through
 * createWorker (the process's own wiring), each on a queue prefix of its own
 * unless one is given.
 */
export class Harness {
  private readonly workers: RunningWorker[] = [];
  readonly subscribers: Subscriber[] = [];

  private constructor(
    readonly db: TestDatabase,
    readonly prisma: PrismaClient,
    readonly accountId: string,
    readonly playbookId: string,
    readonly sourceId: string,
  ) {}

  static async create(): Promise<Harness> {
    const db = await createTestDatabase();
    const prisma = createPrisma({ databaseUrl: db.url, poolMax: 4 });
    const { account_id } = await createAccount(prisma, 'Webhook worker test');
    const h = new Harness(db, prisma, account_id, '', '');
    const { playbookId, sourceId } = await h.playbook(account_id);
    return new Harness(db, prisma, account_id, playbookId, sourceId);
  }

  async playbook(accountId = this.accountId): Promise<{ playbookId: string; sourceId: string }> {
    const playbookId = newId('playbook');
    const sourceId = newId('source');
    await this.prisma.playbook.create({ data: { id: playbookId, accountId, name: 'Auto leads' } });
    await this.prisma.marketingSource.create({
      data: {
        id: sourceId,
        accountId,
        playbookId,
        name: 'Acme Leads',
        sourceType: 'vendor',
        intakeKey: randomBytes(24).toString('base64url'),
      },
    });
    return { playbookId, sourceId };
  }

  static newPrefix(): string {
    return `whw${randomBytes(5).toString('hex')}`;
  }

  async startWorker(
    env: Record<string, string> = {},
    webhooks: WebhookComponentOptions = {},
    prefix = Harness.newPrefix(),
    logger: Logger = createLogger({ service: 'webhook-worker', level: 'silent' }),
  ): Promise<RunningWorker> {
    const config = loadConfig({
      DATABASE_URL: this.db.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0,100ms,200ms',
      WEBHOOK_TIMEOUT_MS: '2000',
      ...env,
    });
    let handle: WebhookHandle | undefined;
    const runtime = createWorker({
      config,
      port: 0,
      logger,
      relayIntervalMs: 100,
      webhooks: {
        reconcileIntervalMs: 200,
        ...webhooks,
        onStarted: (h) => {
          handle = h;
        },
      },
    });
    const { port } = await runtime.start();
    if (!handle) throw new Error('the webhooks component did not start');
    const queues = new QueueSet({ redisUrl: REDIS_URL, prefix });
    await waitFor(() => queues.redis.status === 'ready');
    const recorder = new ActivityRecorder({ prisma: this.prisma, queues, logger });
    const running = { runtime, handle, recorder, queues, prefix, port };
    this.workers.push(running);
    return running;
  }

  async stopWorkers(): Promise<void> {
    const all = this.workers.splice(0);
    await Promise.all(all.map((w) => w.runtime.stop()));
    await Promise.all(all.map((w) => w.queues.close()));
    for (const w of all) await forgetRedis(w.prefix);
    // Leave no subscription or pending chain for the next test to find.
    await this.prisma.subscription.updateMany({ data: { enabled: false } });
    await this.prisma.delivery.updateMany({
      where: { status: 'pending' },
      // As webhook_disable fails them: unqueued, no lease.
      data: { status: 'failed', queued: false, claimedUntil: null },
    });
  }

  async subscriber(answer?: Answer): Promise<Subscriber> {
    const s = await Subscriber.start(answer);
    this.subscribers.push(s);
    return s;
  }

  async lead(
    options: { playbookId?: string; sourceId?: string; externalId?: string | null } = {},
  ): Promise<string> {
    const id = newId('lead');
    await this.prisma.lead.create({
      data: {
        id,
        accountId: this.accountId,
        sourceId: options.sourceId ?? this.sourceId,
        sourceName: 'Acme Leads',
        playbookId: options.playbookId ?? this.playbookId,
        phone: `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`,
        email: 'ana@example.com',
        firstName: 'Ana',
        lastName: 'Ruiz',
        fields: {},
        canonical: {},
        extra: { campaign: 'spring', utm_source: 'fb' },
        externalId: options.externalId === undefined ? 'ext-7' : options.externalId,
        tcpaOptInToken: 't',
        tcpaOptInUrl: 'https://example.com/consent',
        receivedAt: new Date(),
      },
    });
    return id;
  }

  /** An event activity of the lead with its open outbox row, as the activity path writes it. */
  async openActivity(leadId: string, label: string, occurredAt = new Date()): Promise<string> {
    const id = newId('activity');
    await this.prisma.activity.create({
      data: {
        id,
        accountId: this.accountId,
        leadId,
        activityType: 'event',
        activityLabel: label,
        note: label,
        occurredAt,
      },
    });
    await this.prisma.outbox.create({ data: { topic: 'activity', payload: { activity_id: id } } });
    return id;
  }

  async subscription(options: {
    url: string;
    events?: string[];
    outcomes?: string[];
    playbookId?: string | null;
    enabled?: boolean;
  }): Promise<{ id: string; secret: string }> {
    const id = newId('subscription');
    const secret = generateSecret();
    await this.prisma.subscription.create({
      data: {
        id,
        accountId: this.accountId,
        playbookId: options.playbookId === undefined ? this.playbookId : options.playbookId,
        url: options.url,
        events: options.events ?? ['*'],
        outcomes: options.outcomes ?? [],
        enabled: options.enabled ?? true,
        // Disabled as the API disables one (services/api, subscriptions.service.ts).
        ...(options.enabled === false ? { disabledCode: 'manual', disabledReason: 'manual' } : {}),
        secret,
      },
    });
    return { id, secret };
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    await Promise.all(this.subscribers.splice(0).map((s) => s.close()));
    await this.prisma.$disconnect();
    await this.db.drop();
  }
}

/** Deletes every Redis key of a prefix: Redis restarted with nothing on disk. */
export async function forgetRedis(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
