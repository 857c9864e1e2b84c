import { randomBytes } from 'node:crypto';
import { loadConfig } from '@leadhook/config';
import type { Pool, PrismaClient } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';
import {
  aLead,
  anAccount,
  aPhone,
  aPlaybook,
  aSource,
  createTestStores,
  forgetRedis,
  type StepSpec,
  type TestDatabase,
  type TestStores,
  waitFor,
  workerEnv,
} from '@leadhook/testkit';
import type { WorkerRuntime } from '@leadhook/worker-runtime';
import type { PlaybookComponentOptions, PlaybookHandle } from '../playbook.component.js';
import { createWorker } from '../worker.js';

export interface RunningWorker {
  runtime: WorkerRuntime;
  handle: PlaybookHandle;
  /** Where its /readyz and /metrics are. */
  port: number;
}

export type StepDef = StepSpec;

/**
 * One test file's world: a fresh database, one queue prefix, an account, and
 * factories for playbooks and leads; workers started through createWorker, the
 * process's own wiring.
 */
export class Harness {
  readonly prefix = `pbw${randomBytes(5).toString('hex')}`;
  private readonly workers: WorkerRuntime[] = [];

  readonly db: TestDatabase;
  readonly prisma: PrismaClient;
  /** For the SQL functions' own tests: `poolMax` connections (2 unless told). */
  readonly pool: Pool;

  private constructor(
    private readonly stores: TestStores,
    readonly accountId: string,
  ) {
    ({ db: this.db, prisma: this.prisma, pool: this.pool } = stores);
  }

  static async create({ poolMax = 2 }: { poolMax?: number } = {}): Promise<Harness> {
    const stores = await createTestStores({ poolMax });
    const { account_id } = await anAccount(stores.prisma, 'Playbook worker test');
    return new Harness(stores, account_id);
  }

  async startWorker(
    env: Record<string, string> = {},
    playbook: PlaybookComponentOptions = {},
  ): Promise<RunningWorker> {
    const config = loadConfig(
      workerEnv(this.db.url, { QUEUE_PREFIX: this.prefix, CONTACT_HOURS: '00:00-24:00', ...env }),
    );
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
    const { port } = await runtime.start();
    if (!handle) throw new Error('the playbook component did not start');
    // Producers fail fast: let the connection come up before a test enqueues.
    await waitFor(async () => runtime.redis.status === 'ready');
    return { runtime, handle, port };
  }

  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.stop()));
  }

  async playbook(steps: StepDef[]): Promise<{ playbookId: string; sourceId: string }> {
    const playbookId = await aPlaybook(this.prisma, {
      accountId: this.accountId,
      name: 'P',
      steps,
    });
    const source = await aSource(this.prisma, { accountId: this.accountId, playbookId });
    return { playbookId, sourceId: source.id };
  }

  /**
   * A California lead with a San Francisco (415) number: a state without rules of
   * its own, so CONTACT_HOURS alone decides. Written as intake writes an accepted
   * lead: the lead and its `enrollment` outbox row.
   */
  async lead(
    source: { playbookId: string; sourceId: string },
    overrides: { outcome?: string; optedOut?: boolean; phone?: string } = {},
  ): Promise<{ leadId: string; phone: string }> {
    const phone = overrides.phone ?? aPhone();
    const lead = await aLead(
      this.prisma,
      { accountId: this.accountId, ...source },
      {
        phone,
        fields: {
          first_name: 'Ana',
          last_name: 'Ruiz',
          phone,
          current_residence_state: 'CA',
          current_residence_zip: '94110',
        },
        ...(overrides.outcome ? { outcome: overrides.outcome } : {}),
        ...(overrides.optedOut ? { optedOut: true } : {}),
      },
    );
    await this.prisma.outbox.create({
      data: { topic: 'enrollment', payload: { lead_id: lead.id } },
    });
    return { leadId: lead.id, phone: lead.phone };
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
  forgetRedis(queueName?: string): Promise<number> {
    return forgetRedis(this.prefix, queueName ? { queueName } : {});
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    await this.forgetRedis();
    await this.stores.close();
  }
}
