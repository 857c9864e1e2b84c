import { randomBytes } from 'node:crypto';
import { ActivityRecorder } from '@leadhook/activities';
import { loadConfig } from '@leadhook/config';
import type { Pool, PrismaClient } from '@leadhook/db';
import { createLogger, type Logger } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import {
  type Answer,
  aLead,
  aLeadOwner,
  anActivity,
  aPlaybook,
  aSource,
  aSubscription,
  createTestStores,
  forgetRedis,
  Subscriber,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestStores,
  waitFor,
  workerEnv,
} from '@leadhook/testkit';
import type { WorkerRuntime } from '@leadhook/worker-runtime';
import type { WebhookComponentOptions, WebhookHandle } from '../webhook.component.js';
import { createWorker } from '../worker.js';

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

  readonly db: TestDatabase;
  readonly prisma: PrismaClient;
  /** For the SQL functions' own tests: `poolMax` connections (2 unless told). */
  readonly pool: Pool;

  private constructor(
    private readonly stores: TestStores,
    readonly accountId: string,
    readonly playbookId: string,
    readonly sourceId: string,
  ) {
    ({ db: this.db, prisma: this.prisma, pool: this.pool } = stores);
  }

  static async create({ poolMax = 2 }: { poolMax?: number } = {}): Promise<Harness> {
    const stores = await createTestStores({ poolMax });
    const owner = await aLeadOwner(stores.prisma, { account: 'Webhook worker test' });
    return new Harness(stores, owner.accountId, owner.playbookId, owner.sourceId);
  }

  /** Another playbook of the account (or of `accountId`), with a source feeding it. */
  async playbook(accountId = this.accountId): Promise<{ playbookId: string; sourceId: string }> {
    const playbookId = await aPlaybook(this.prisma, { accountId });
    const source = await aSource(this.prisma, { accountId, playbookId });
    return { playbookId, sourceId: source.id };
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
    const config = loadConfig(
      workerEnv(this.db.url, {
        QUEUE_PREFIX: prefix,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0,100ms,200ms',
        WEBHOOK_TIMEOUT_MS: '2000',
        ...env,
      }),
    );
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
    const queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
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

  /** A lead of the account (of its playbook and source unless told), as intake stores it. */
  async lead(
    options: { playbookId?: string; sourceId?: string; externalId?: string | null } = {},
  ): Promise<string> {
    const lead = await aLead(
      this.prisma,
      {
        accountId: this.accountId,
        playbookId: options.playbookId ?? this.playbookId,
        sourceId: options.sourceId ?? this.sourceId,
      },
      {
        extra: { campaign: 'spring', utm_source: 'fb' },
        ...(options.externalId === undefined ? {} : { externalId: options.externalId }),
      },
    );
    return lead.id;
  }

  /** An event activity of the lead with its open outbox row, as the activity path writes it. */
  async openActivity(leadId: string, label: string, occurredAt = new Date()): Promise<string> {
    const activity = await anActivity(this.prisma, {
      accountId: this.accountId,
      leadId,
      label,
      occurredAt,
      outbox: true,
    });
    return activity.id;
  }

  /** A subscription of the account, to the harness's playbook unless told (null: every playbook). */
  async subscription(options: {
    url: string;
    events?: string[];
    outcomes?: string[];
    playbookId?: string | null;
    enabled?: boolean;
  }): Promise<{ id: string; secret: string }> {
    return aSubscription(this.prisma, {
      ...options,
      accountId: this.accountId,
      playbookId: options.playbookId === undefined ? this.playbookId : options.playbookId,
    });
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    await Promise.all(this.subscribers.splice(0).map((s) => s.close()));
    await this.stores.close();
  }
}
