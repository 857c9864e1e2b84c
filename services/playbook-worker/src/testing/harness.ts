import { randomBytes } from 'node:crypto';
import { loadConfig } from '@leadhook/config';
import { createAccount, createPrisma, newId, type Prisma, type PrismaClient } from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { createLogger } from '@leadhook/observability';
import { waitFor } from '@leadhook/testkit';
import type { WorkerRuntime } from '@leadhook/worker-runtime';
import { Redis } from 'ioredis';
import type { PlaybookComponentOptions, PlaybookHandle } from '../playbook.component.js';
import { createWorker } from '../worker.js';

export { waitFor };

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface RunningWorker {
  runtime: WorkerRuntime;
  handle: PlaybookHandle;
}

export interface StepDef {
  type: 'sms' | 'call';
  delay_seconds: number;
  template?: string;
}

/**
 * One test file's world: a fresh database, one queue prefix, an account, and
 * factories for playbooks and leads; workers started through createWorker, the
 * process's own wiring.
 */
export class Harness {
  readonly prefix = `pbw${randomBytes(5).toString('hex')}`;
  private readonly workers: WorkerRuntime[] = [];
  private phoneCounter = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly prisma: PrismaClient,
    readonly accountId: string,
  ) {}

  static async create(): Promise<Harness> {
    const db = await createTestDatabase();
    const prisma = createPrisma({ databaseUrl: db.url, poolMax: 4 });
    const { account_id } = await createAccount(prisma, 'Playbook worker test');
    return new Harness(db, prisma, account_id);
  }

  async startWorker(
    env: Record<string, string> = {},
    playbook: PlaybookComponentOptions = {},
  ): Promise<RunningWorker> {
    const config = loadConfig({
      DATABASE_URL: this.db.url,
      REDIS_URL,
      QUEUE_PREFIX: this.prefix,
      CONTACT_HOURS: '00:00-24:00',
      ...env,
    });
    let handle: PlaybookHandle | undefined;
    const runtime = createWorker({
      config,
      port: 0,
      logger: createLogger({ service: 'playbook-worker', level: 'silent' }),
      relayIntervalMs: 100,
      playbook: {
        reconcileIntervalMs: 300,
        ...playbook,
        onStarted: (h) => {
          handle = h;
        },
      },
    });
    this.workers.push(runtime);
    await runtime.start();
    if (!handle) throw new Error('the playbook component did not start');
    // Producers fail fast: let the connection come up before a test enqueues.
    await waitFor(async () => runtime.redis.status === 'ready');
    return { runtime, handle };
  }

  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.stop()));
  }

  async playbook(steps: StepDef[]): Promise<{ playbookId: string; sourceId: string }> {
    const playbookId = newId('playbook');
    const sourceId = newId('source');
    await this.prisma.playbook.create({
      data: {
        id: playbookId,
        accountId: this.accountId,
        name: 'P',
        steps: steps.map(
          (step): Prisma.InputJsonObject => ({
            type: step.type,
            delay_seconds: step.delay_seconds,
            ...(step.template === undefined ? {} : { template: step.template }),
          }),
        ),
      },
    });
    await this.prisma.marketingSource.create({
      data: {
        id: sourceId,
        accountId: this.accountId,
        playbookId,
        name: 'Acme Leads',
        sourceType: 'vendor',
        intakeKey: randomBytes(24).toString('base64url'),
      },
    });
    return { playbookId, sourceId };
  }

  /**
   * A California lead with a San Francisco (415) number: a state without rules of
   * its own, so CONTACT_HOURS alone decides. Written as intake writes an accepted
   * lead: the lead and its `enrollment` outbox row.
   */
  async lead(
    source: { playbookId: string; sourceId: string },
    overrides: { outcome?: string; optedOut?: boolean } = {},
  ): Promise<{ leadId: string; phone: string }> {
    const leadId = newId('lead');
    this.phoneCounter++;
    const line = String(
      (Number.parseInt(randomBytes(3).toString('hex'), 16) + this.phoneCounter) % 10_000,
    ).padStart(4, '0');
    const phone = `+1415555${line}`;
    await this.prisma.lead.create({
      data: {
        id: leadId,
        accountId: this.accountId,
        sourceId: source.sourceId,
        sourceName: 'Acme Leads',
        playbookId: source.playbookId,
        phone,
        email: 'ana@example.com',
        firstName: 'Ana',
        lastName: 'Ruiz',
        fields: {
          first_name: 'Ana',
          last_name: 'Ruiz',
          phone,
          current_residence_state: 'CA',
          current_residence_zip: '94110',
        },
        canonical: {},
        externalId: 'ext-7',
        tcpaOptInToken: 't',
        tcpaOptInUrl: 'https://example.com/consent',
        receivedAt: new Date(),
        ...(overrides.outcome ? { outcome: overrides.outcome } : {}),
        ...(overrides.optedOut ? { optedOut: true } : {}),
      },
    });
    await this.prisma.outbox.create({
      data: { topic: 'enrollment', payload: { lead_id: leadId } },
    });
    return { leadId, phone };
  }

  /** The lead's activity labels in the order they were recorded. */
  async labels(leadId: string): Promise<string[]> {
    const rows = await this.prisma.activity.findMany({
      where: { leadId },
      orderBy: { id: 'asc' },
      select: { activityLabel: true },
    });
    return rows.map((r) => r.activityLabel);
  }

  async openEnrollmentOutboxRows(leadId: string): Promise<number> {
    return this.prisma.outbox.count({
      where: { topic: 'enrollment', payload: { equals: { lead_id: leadId } }, doneAt: null },
    });
  }

  /** Deletes every Redis key of this file's prefix: Redis restarted with nothing on disk. */
  async forgetRedis(queueName?: string): Promise<number> {
    const redis = new Redis(REDIS_URL);
    try {
      const pattern = `${this.prefix}:${queueName ?? '*'}${queueName ? ':*' : ''}`;
      let deleted = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) deleted += await redis.del(...keys);
      } while (cursor !== '0');
      return deleted;
    } finally {
      redis.disconnect();
    }
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    await this.forgetRedis();
    await this.prisma.$disconnect();
    await this.db.drop();
  }
}
