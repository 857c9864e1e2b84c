import { randomBytes } from 'node:crypto';
import { createPrisma, newId, type PrismaClient } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';
import { liveJob, QueueSet } from '@leadhook/queue';
import {
  aLead,
  aLeadOwner,
  anAccount,
  createTestDatabase,
  TEST_REDIS_URL,
  type TestDatabase,
} from '@leadhook/testkit';
import { Queue } from 'bullmq';
import { ActivityRecorder } from './activity-path.js';

let db: TestDatabase;
let prisma: PrismaClient;
let queues: QueueSet;
let recorder: ActivityRecorder;
let accountId: string;
let otherAccountId: string;
let playbookId: string;
let sourceId: string;
const prefix = `test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 4 });
  queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
  recorder = new ActivityRecorder({
    prisma,
    queues,
    logger: createLogger({ service: 'test', level: 'silent' }),
  });
  ({ accountId, playbookId, sourceId } = await aLeadOwner(prisma));
  otherAccountId = (await anAccount(prisma, 'B')).account_id;
});

afterAll(async () => {
  const inspect = new Queue('activity', { connection: queues.redis, prefix });
  await inspect.obliterate({ force: true });
  await inspect.close();
  await queues.close();
  await prisma.$disconnect();
  await db.drop();
});

async function lead(options: { enrolled?: boolean } = {}): Promise<string> {
  const { id } = await aLead(prisma, { accountId, playbookId, sourceId });
  if (options.enrolled) {
    await prisma.enrollment.create({ data: { id: newId('enrollment'), leadId: id, playbookId } });
  }
  return id;
}

/** The labels that the lead's reply `body` records, in order (false if not recorded). */
async function labelsOfReply(leadId: string, body: string) {
  const result = await recorder.record({
    leadId,
    type: 'event',
    label: 'message_received',
    data: { body },
  });
  return result.kind === 'recorded' && result.activities.map((a) => a.label);
}

describe('the activity path', () => {
  it('writes the activity and its outbox row, and enqueues the activity job', async () => {
    const leadId = await lead();
    const result = await recorder.record({ leadId, type: 'event', label: 'interested' });
    expect(result.kind).toBe('recorded');
    if (result.kind !== 'recorded') return;
    const [activity] = result.activities;
    const row = await prisma.activity.findUniqueOrThrow({ where: { id: activity!.id } });
    expect(row).toMatchObject({ activityType: 'event', activityLabel: 'interested', accountId });
    expect(row.note).toBe('The lead said they are interested.');
    const box = await prisma.outbox.findMany({
      where: { payload: { equals: { activity_id: activity!.id } } },
    });
    expect(box).toHaveLength(1);
    const queue = new Queue('activity', { connection: queues.redis, prefix });
    try {
      for (
        let i = 0;
        i < 50 && !(await liveJob(queue, 'activity', { activity_id: activity!.id }));
        i++
      ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await liveJob(queue, 'activity', { activity_id: activity!.id })).toBeDefined();
    } finally {
      await queue.close();
    }
  });

  it('refuses a label that is not in the catalog for its type', async () => {
    const leadId = await lead();
    expect((await recorder.record({ leadId, type: 'outcome', label: 'started' })).kind).toBe(
      'unknown_label',
    );
    expect((await recorder.record({ leadId, type: 'event', label: 'no_such' })).kind).toBe(
      'unknown_label',
    );
    expect(await prisma.activity.count({ where: { leadId } })).toBe(0);
  });

  it("does not find another account's lead", async () => {
    const leadId = await lead();
    const result = await recorder.record(
      { leadId, type: 'event', label: 'interested' },
      { accountId: otherAccountId },
    );
    expect(result.kind).toBe('lead_not_found');
  });

  it('stops an active play before its outcome, and refuses a second outcome', async () => {
    const leadId = await lead({ enrolled: true });
    const first = await recorder.record({ leadId, type: 'outcome', label: 'opted_out' });
    expect(first.kind).toBe('recorded');
    if (first.kind !== 'recorded') return;
    expect(first.activities.map((a) => a.label)).toEqual(['stopped', 'opted_out']);
    expect(await prisma.enrollment.findUnique({ where: { leadId } })).toMatchObject({
      status: 'stopped',
      nextRunAt: null,
    });
    expect(await prisma.lead.findUnique({ where: { id: leadId } })).toMatchObject({
      outcome: 'opted_out',
      optedOut: true,
    });
    const second = await recorder.record({ leadId, type: 'outcome', label: 'qualified' });
    expect(second).toEqual({ kind: 'outcome_exists', outcome: 'opted_out' });
  });

  it('lets exactly one of many racing outcomes win', async () => {
    const leadId = await lead({ enrolled: true });
    const labels = [
      'qualified',
      'unqualified',
      'not_interested',
      'callback_requested',
      'interested',
    ];
    const results = await Promise.all(
      labels.map((label) => recorder.record({ leadId, type: 'outcome', label })),
    );
    expect(results.filter((r) => r.kind === 'recorded')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'outcome_exists')).toHaveLength(4);
    expect(await prisma.activity.count({ where: { leadId, activityType: 'outcome' } })).toBe(1);
    expect(await prisma.activity.count({ where: { leadId, activityLabel: 'stopped' } })).toBe(1);
  });

  it.each(['STOP', '  stop ', 'Unsubscribe', 'optout', 'please stop by at 5'])(
    'a reply %j records message_received, stopped, then opted_out',
    async (body) => {
      const leadId = await lead({ enrolled: true });
      expect(await labelsOfReply(leadId, body)).toEqual([
        'message_received',
        'stopped',
        'opted_out',
      ]);
      expect(await prisma.enrollment.findUnique({ where: { leadId } })).toMatchObject({
        status: 'stopped',
      });
    },
  );

  it('an ordinary reply is only recorded', async () => {
    const leadId = await lead({ enrolled: true });
    expect(await labelsOfReply(leadId, 'please call me at 5')).toEqual(['message_received']);
    expect(await prisma.enrollment.findUnique({ where: { leadId } })).toMatchObject({
      status: 'active',
    });
  });

  it('a STOP with no running play still records stopped before opted_out', async () => {
    const leadId = await lead();
    expect(await labelsOfReply(leadId, 'STOP')).toEqual([
      'message_received',
      'stopped',
      'opted_out',
    ]);
  });

  it('a STOP after an outcome opts the lead out with a stopped event and no second outcome', async () => {
    const leadId = await lead({ enrolled: true });
    await recorder.record({ leadId, type: 'outcome', label: 'callback_requested' });
    expect(await labelsOfReply(leadId, 'stop')).toEqual(['message_received', 'stopped']);
    expect(await prisma.lead.findUnique({ where: { id: leadId } })).toMatchObject({
      outcome: 'callback_requested',
      optedOut: true,
    });
  });
});
