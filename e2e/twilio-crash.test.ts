import { randomBytes } from 'node:crypto';
import { createPrisma, type PrismaClient } from '@leadhook/db';
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
 * the moment it has answered 201, before the worker can record anything. The
 * worker restarted finds the step's send at Twilio instead of texting the lead
 * again, records it once, and the play goes on to its call.
 */

let db: TestDatabase;
let prisma: PrismaClient;
let fake: FakeTwilio;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 2 });
  fake = await FakeTwilio.start();
}, 240_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL')));
  await fake?.close();
  await prisma?.$disconnect();
  await db?.drop();
});

it('texts the lead once when the worker is killed right after Twilio accepted the SMS', async () => {
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `e2e-twilio-${randomBytes(4).toString('hex')}`,
    CONTACT_HOURS: '00:00-24:00',
    PUBLIC_BASE_URL: 'https://leads.example.com',
    PROVIDER_RETRY_SCHEDULE: '1s',
    ...fake.settings(),
    TWILIO_FROM_NUMBER: '+14155550199',
  };
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
  fake.script('message', { kind: 'accept', afterAnswer: () => first.process.kill('SIGKILL') });

  // As intake writes an accepted lead: the lead and its enrollment outbox row,
  // which the worker's relay enqueues.
  const lead = await aLead(prisma, { accountId, playbookId, sourceId: source.id });
  await prisma.outbox.create({ data: { topic: 'enrollment', payload: { lead_id: lead.id } } });

  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(fake.messages).toHaveLength(1);

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
    status: 'queued',
    carrierId: fake.messages[0]?.sid,
    attempts: 1,
  });
  expect(sent[0]?.data).toMatchObject({ step: 0, provider_message_id: message.id });
  expect(await labels()).not.toContain('message_failed');
  // The play went on: its call was placed, once.
  expect(fake.posts('call').filter((p) => p.form.To === lead.phone)).toHaveLength(1);
}, 360_000);
