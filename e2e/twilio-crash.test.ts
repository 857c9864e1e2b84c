import { randomBytes } from 'node:crypto';
import { createPool, createPrisma, type Pool, type PrismaClient } from '@leadhook/db';
import {
  aLead,
  anAccount,
  aPlaybook,
  aSource,
  createTestDatabase,
  FakeTwilio,
  freePort,
  TEST_REDIS_URL,
  type TestDatabase,
} from '@leadhook/testkit';
import { ensureBuilt, type ServiceProcess, startProcess, waitFor } from './support.js';

/**
 * At most one SMS per step through a crash (docs/operations.md, "Twilio"): the
 * real playbook worker sends its first SMS to a fake Twilio, which SIGKILLs it
 * the moment it has answered 201, before the worker can record anything (the
 * test holds the step's row locked meanwhile). The
 * worker restarted finds the step's send at Twilio instead of texting the lead
 * again, records it once, and the play goes on to its call.
 *
 * Meanwhile Twilio reports the SMS delivered to the real intake, which finds no
 * message with that SID and holds the status
 * (docs/operations.md, "Twilio's callbacks"): the restarted worker's adoption of the message applies it, and
 * message_delivered is recorded once.
 */

let db: TestDatabase;
let prisma: PrismaClient;
/** The test's own connection, for the row lock below. */
let locker: Pool;
let fake: FakeTwilio;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 2 });
  locker = createPool({ databaseUrl: db.url, max: 1 });
  fake = await FakeTwilio.start({ callbacks: true });
}, 240_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL')));
  await fake?.close();
  await locker?.end();
  await prisma?.$disconnect();
  await db?.drop();
});

it('texts the lead once when the worker is killed right after Twilio accepted the SMS, and keeps its delivery', async () => {
  const intakePort = await freePort();
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `e2e-twilio-${randomBytes(4).toString('hex')}`,
    CONTACT_HOURS: '00:00-24:00',
    // Where the fake posts its status callbacks: intake.
    PUBLIC_BASE_URL: `http://127.0.0.1:${intakePort}`,
    PROVIDER_RETRY_SCHEDULE: '1s',
    ...fake.settings(),
    TWILIO_FROM_NUMBER: '+14155550199',
  };
  running.push(await startProcess('intake', intakePort, env));
  const { account_id: accountId } = await anAccount(prisma, 'Twilio crash');
  const playbookId = await aPlaybook(prisma, {
    accountId,
    steps: [
      { type: 'sms', delay_seconds: 0, template: 'Hello from the dealer' },
      { type: 'call', delay_seconds: 0, template: 'Hello, this is the dealer' },
    ],
  });
  const source = await aSource(prisma, { accountId, playbookId });

  const first = await startProcess('playbook-worker', await freePort(), env);
  running.push(first);
  // The step's row is locked before the 201 is written, and until Twilio's
  // `delivered` has come: the kill is a signal sent once the answer has left,
  // and now and then the worker committed the SID before it landed.
  const lock = await locker.connect();
  fake.script('message', {
    kind: 'accept',
    beforeAnswer: async (created) => {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM provider_messages WHERE "to" = $1 FOR UPDATE', [created.to]);
    },
    afterAnswer: () => first.process.kill('SIGKILL'),
  });

  // As intake writes an accepted lead: the lead and its enrollment outbox row,
  // which the worker's relay enqueues.
  const lead = await aLead(prisma, { accountId, playbookId, sourceId: source.id });
  await prisma.outbox.create({ data: { topic: 'enrollment', payload: { lead_id: lead.id } } });

  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(fake.messages).toHaveLength(1);
  const sid = fake.messages[0]?.sid;
  // Twilio's `delivered` reaches intake before any worker holds the SID: held.
  const delivered = await waitFor(
    async () =>
      fake.callbacks.find(
        (c) => c.params.MessageSid === sid && c.params.MessageStatus === 'delivered',
      ),
    30_000,
  );
  expect(delivered.status).toBe(200);
  expect(JSON.parse(delivered.text)).toEqual({ status: 'held', reason: 'message_not_found' });
  expect(await prisma.providerHeldStatus.count({ where: { carrierId: sid } })).toBe(1);
  await lock.query('COMMIT');
  lock.release();

  running.push(await startProcess('playbook-worker', await freePort(), env));
  const labels = async () =>
    (await prisma.activity.findMany({ where: { leadId: lead.id }, orderBy: { id: 'asc' } })).map(
      (a) => a.activityLabel,
    );
  // The killed worker's step job comes back once its lock expires (BullMQ's
  // stalled-job check): up to about a minute.
  await waitFor(async () => (await labels()).includes('call_attempted') || undefined, 240_000);

  const posts = fake.posts('message').filter((p) => p.form.To === lead.phone);
  expect(posts).toHaveLength(1);
  const sent = await prisma.activity.findMany({
    where: { leadId: lead.id, activityLabel: 'first_message_sent' },
  });
  expect(sent).toHaveLength(1);
  const message = await prisma.providerMessage.findFirstOrThrow({
    where: { leadId: lead.id, step: 0 },
  });
  expect(message).toMatchObject({
    provider: 'twilio',
    status: 'delivered',
    carrierId: sid,
    attempts: 1,
  });
  expect(sent[0]?.data).toMatchObject({ step: 0, provider_message_id: message.id });
  expect(await labels()).not.toContain('message_failed');
  // The held status, applied once after the step's own first_message_sent.
  const recorded = await labels();
  expect(recorded.filter((l) => l === 'message_delivered')).toHaveLength(1);
  expect(recorded.indexOf('message_delivered')).toBe(recorded.indexOf('first_message_sent') + 1);
  const deliveredActivity = await prisma.activity.findFirstOrThrow({
    where: { leadId: lead.id, activityLabel: 'message_delivered' },
  });
  expect(deliveredActivity.data).toEqual({
    step: 0,
    provider_message_id: message.id,
    status: 'delivered',
  });
  expect(await prisma.providerHeldStatus.count({ where: { carrierId: sid } })).toBe(0);
  // The play went on: its call was placed, once.
  expect(fake.posts('call').filter((p) => p.form.To === lead.phone)).toHaveLength(1);
}, 360_000);
