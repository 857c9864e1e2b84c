import { createPrisma, type PrismaClient } from '@leadhook/db';
import { FakeTwilio, postTwilioCallback, randomPhone, Subscriber } from '@leadhook/testkit';
import { verify } from '@leadhook/webhooks';
import {
  type ApiClient,
  apiClient,
  createAccount,
  useStartedService,
  validLead,
  waitFor,
} from './support.js';

/**
 * The whole Twilio flow through the real processes of `pnpm start` with
 * PROVIDER=twilio (docs/operations.md, "Twilio"): the playbook worker sends to a
 * fake Twilio REST API on a local HTTP server (Basic auth and form fields
 * checked), which posts signed status callbacks and replies to intake's
 * /providers/twilio routes (docs/operations.md, "Twilio's callbacks"), and the
 * activities reach a real subscriber, signed. Leads run at once, each with its
 * own script at the fake: a full play (SMS, a call a machine answers, SMS), a
 * STOP reply, Twilio's 21610 and 21211, a 500 then a 201, and callbacks with
 * no or a wrong signature.
 */

const OUR_NUMBER = '+14155550199';

const env: Record<string, string> = {
  CONTACT_HOURS: '00:00-24:00',
  PROVIDER_RETRY_SCHEDULE: '1s,1s',
  TWILIO_FROM_NUMBER: OUR_NUMBER,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  API_RATE_LIMIT_PER_KEY: '0',
  API_RATE_LIMIT_PER_ADDRESS: '0',
};
let fake: FakeTwilio;
let subscriber: Subscriber;
let prisma: PrismaClient;
let api: ApiClient;
let secret: string;
let accountId: string;
/** The post URLs of the three-step play (subscribed) and of the two-SMS play. */
let threeSteps: string;
let twoTexts: string;

// Before the service's beforeAll, which reads `env` when it starts the processes.
beforeAll(async () => {
  fake = await FakeTwilio.start({ callbacks: true });
  Object.assign(env, fake.settings());
  subscriber = await Subscriber.start();
});

const started = useStartedService('twilio', env);

const publicBaseUrl = () => `http://127.0.0.1:${started.service.ports.INTAKE_PORT}`;

beforeAll(async () => {
  prisma = createPrisma({ databaseUrl: started.db.url, poolMax: 2 });
  const account = await createAccount(started.db.url, 'Twilio flow');
  accountId = account.account_id;
  api = apiClient(started.service.ports.API_PORT, account.api_key);
  const play = async (name: string, steps: unknown[]) => {
    const created = await api('/playbooks', { method: 'POST', body: { name, steps } });
    expect(created.status).toBe(201);
    return ((await created.json()) as { id: string }).id;
  };
  const source = async (playbookId: string, name: string) => {
    const created = await api('/marketing_sources', {
      method: 'POST',
      body: { name, source_type: 'vendor', playbook_id: playbookId },
    });
    return ((await created.json()) as { post_url: string }).post_url;
  };
  const threeStepsId = await play('SMS, call, SMS', [
    { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, your quote is ready.' },
    { type: 'call', delay_seconds: 1, template: 'Hello, this is Acme about your quote.' },
    { type: 'sms', delay_seconds: 1, template: 'We left you a voicemail.' },
  ]);
  const subscribed = await api(`/playbooks/${threeStepsId}/subscriptions`, {
    method: 'POST',
    body: { url: subscriber.url, events: ['*'], outcomes: ['*'] },
  });
  expect(subscribed.status).toBe(201);
  secret = ((await subscribed.json()) as { secret: string }).secret;
  threeSteps = await source(threeStepsId, 'Vendor three');
  twoTexts = await source(
    await play('Two texts', [
      { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, your quote is ready.' },
      { type: 'sms', delay_seconds: 4, template: 'Still interested?' },
    ]),
    'Vendor two',
  );
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await subscriber?.close();
  await prisma?.$disconnect();
});

interface LeadDetail {
  outcome: string | null;
  opted_out: boolean;
  activities: Array<{ id: string; activity_label: string; data: Record<string, unknown> }>;
}

async function submit(postUrl: string, phone: string): Promise<string> {
  const response = await fetch(postUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validLead({ phone, first_name: 'Ana' })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

async function lead(id: string): Promise<LeadDetail> {
  return (await (await api(`/leads/${id}`)).json()) as LeadDetail;
}

const labels = (detail: LeadDetail) => detail.activities.map((a) => a.activity_label);
const count = (detail: LeadDetail, label: string) =>
  labels(detail).filter((l) => l === label).length;

/** Until the lead has an outcome or its play completed, and every label of `needed` (with repeats) is on its timeline. */
async function until(id: string, needed: string[]): Promise<LeadDetail> {
  let last: LeadDetail | undefined;
  try {
    return await waitFor(async () => {
      last = await lead(id);
      const have = labels(last);
      const enough = needed.every(
        (label) =>
          have.filter((l) => l === label).length >= needed.filter((l) => l === label).length,
      );
      return (last.outcome !== null || have.includes('completed')) && enough ? last : undefined;
    }, 60_000);
  } catch (err) {
    // What the lead got to says which piece is broken.
    throw new Error(`${(err as Error).message}: ${last?.outcome} ${last && labels(last)}`);
  }
}

const onDoNotContactList = async (phone: string) =>
  prisma.suppression.findMany({ where: { accountId, phone } });

it('works leads through Twilio: sends, fates, replies, refusals, retries and signatures', async () => {
  const a = randomPhone();
  const b = randomPhone();
  const c = randomPhone();
  const d = randomPhone();
  const e = randomPhone();
  fake.scriptFor(a.e164, 'call', {
    kind: 'accept',
    fate: { call: 'completed', answeredBy: 'machine_end_beep' },
  });
  fake.scriptFor(c.e164, 'message', { kind: 'error', status: 400, code: 21610 });
  fake.scriptFor(d.e164, 'message', { kind: 'error', status: 400, code: 21211 });
  fake.scriptFor(e.e164, 'message', { kind: 'error', status: 500 });

  const [leadA, leadB, leadC, leadD, leadE] = await Promise.all([
    submit(threeSteps, a.national),
    submit(twoTexts, b.national),
    submit(threeSteps, c.national),
    submit(threeSteps, d.national),
    submit(threeSteps, e.national),
  ]);

  // B replies STOP to its first SMS, before its second is due.
  await waitFor(async () =>
    labels(await lead(leadB)).includes('message_delivered') ? true : undefined,
  );
  const reply = await fake.inbound(publicBaseUrl(), { from: b.e164, to: OUR_NUMBER, body: 'STOP' });
  expect(reply.status).toBe(200);
  expect(reply.text).toContain('<Response/>');

  const [doneA, doneB, doneC, doneD, doneE] = await Promise.all([
    until(leadA, [
      'first_message_sent',
      'message_delivered',
      'call_attempted',
      'voicemail_left',
      'message_sent',
      'message_delivered',
      'unreachable',
    ]),
    until(leadB, ['message_received']),
    until(leadC, []),
    until(leadD, []),
    until(leadE, ['first_message_sent', 'call_attempted', 'message_sent']),
  ]);

  // A: the three requests, as Twilio takes them.
  const [first, last] = fake.posts('message', a.e164);
  const [call] = fake.posts('call', a.e164);
  expect(fake.posts('message', a.e164)).toHaveLength(2);
  expect(fake.posts('call', a.e164)).toHaveLength(1);
  for (const request of [first, call, last]) {
    expect(request?.authorized).toBe(true);
    expect(request?.form).toMatchObject({
      To: a.e164,
      From: OUR_NUMBER,
      StatusCallback: `${publicBaseUrl()}/providers/twilio/status`,
    });
  }
  expect(first?.form.Body).toBe('Hi Ana, your quote is ready. Reply STOP to opt out.');
  expect(last?.form.Body).toBe('We left you a voicemail.');
  expect(call?.form.MachineDetection).toBe('DetectMessageEnd');
  expect(call?.form.Twiml).toContain('<Say');
  expect(call?.form.Twiml).toContain('Hello, this is Acme about your quote.');
  expect(labels(doneA).sort()).toEqual(
    [
      'started',
      'first_message_sent',
      'message_delivered',
      'call_attempted',
      'voicemail_left',
      'message_sent',
      'message_delivered',
      'completed',
      doneA.outcome,
    ].sort(),
  );
  expect(doneA.outcome).toBe('unreachable');
  // The subscriber got each of A's activities, signed with the subscription's secret.
  const receivedForA = () =>
    subscriber.received.filter((r) => JSON.parse(r.body).lead_id === leadA);
  const missing = () => {
    const ids = new Set(receivedForA().map((r) => JSON.parse(r.body).id as string));
    return doneA.activities.filter((activity) => !ids.has(activity.id));
  };
  const forA = await waitFor(
    async () => (missing().length === 0 ? receivedForA() : undefined),
    60_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}: not delivered ${missing().map((a) => a.activity_label)}`);
  });
  for (const request of forA) {
    expect(
      verify({
        secret,
        id: String(request.headers['webhook-id']),
        timestamp: String(request.headers['webhook-timestamp']),
        signature: String(request.headers['webhook-signature']),
        body: request.body,
        now: new Date(),
        toleranceSeconds: 600,
      }),
    ).toEqual({ ok: true });
  }

  // B: opted out by its STOP; its phone on the do-not-contact list; no second SMS.
  expect(doneB).toMatchObject({ outcome: 'opted_out', opted_out: true });
  expect(await onDoNotContactList(b.e164)).toHaveLength(1);

  // C: Twilio's 21610 (the recipient had replied STOP to this sender).
  expect(doneC).toMatchObject({ outcome: 'opted_out' });
  expect(labels(doneC)).not.toContain('first_message_sent');
  expect(await onDoNotContactList(c.e164)).toHaveLength(1);

  // D: 21211, not a valid number.
  expect(doneD.outcome).toBe('undeliverable');
  expect(labels(doneD)).not.toContain('first_message_sent');

  // E: a 500, then a 201 on the retry: one SMS, recorded once.
  expect(fake.posts('message', e.e164).length).toBeGreaterThanOrEqual(3);
  expect(fake.messages.filter((m) => m.to === e.e164)).toHaveLength(2);
  expect(count(doneE, 'first_message_sent')).toBe(1);
  expect(count(doneE, 'message_failed')).toBe(0);

  // The stopped plays sent nothing more: B's second SMS was due 4 s after its first.
  await new Promise((r) => setTimeout(r, 5_000));
  expect(fake.posts('message', b.e164)).toHaveLength(1);
  for (const phone of [c.e164, d.e164]) {
    expect(fake.posts('message', phone)).toHaveLength(1);
    expect(fake.posts('call', phone)).toHaveLength(0);
  }

  // Callbacks without or with a wrong signature: refused, and nothing changes.
  const before = {
    a: (await lead(leadA)).activities.length,
    messages: await prisma.providerMessage.findMany({
      where: { leadId: leadA },
      orderBy: { id: 'asc' },
    }),
  };
  const sid = fake.messages.find((m) => m.to === a.e164)?.sid ?? '';
  const failed = {
    MessageSid: sid,
    MessageStatus: 'undelivered',
    ErrorCode: '21610',
    AccountSid: fake.accountSid,
    To: a.e164,
    From: OUR_NUMBER,
  };
  const unsigned = await fake.inbound(publicBaseUrl(), {
    from: a.e164,
    to: OUR_NUMBER,
    body: 'STOP',
    signature: null,
  });
  expect(unsigned.status).toBe(401);
  const wrong = await fake.inbound(publicBaseUrl(), {
    from: a.e164,
    to: OUR_NUMBER,
    body: 'STOP',
    signature: 'bm90IGl0',
  });
  expect(wrong.status).toBe(403);
  const statusUrl = `${publicBaseUrl()}/providers/twilio/status`;
  expect(
    (
      await postTwilioCallback({
        url: statusUrl,
        authToken: fake.authToken,
        params: failed,
        signature: null,
      })
    ).status,
  ).toBe(401);
  expect(
    (await postTwilioCallback({ url: statusUrl, authToken: 'another token', params: failed }))
      .status,
  ).toBe(403);
  const after = await lead(leadA);
  expect(after.activities).toHaveLength(before.a);
  expect(after).toMatchObject({ outcome: 'unreachable', opted_out: false });
  expect(
    await prisma.providerMessage.findMany({ where: { leadId: leadA }, orderBy: { id: 'asc' } }),
  ).toEqual(before.messages);
  expect(await onDoNotContactList(a.e164)).toHaveLength(0);
}, 120_000);
