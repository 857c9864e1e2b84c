import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newId } from '@leadhook/db';
import { applyHeldStatuses } from '@leadhook/providers';
import {
  anEnrollment,
  postTwilioCallback,
  type TwilioCallbackParams,
  twilioSignature,
  validLead,
} from '@leadhook/testkit';
import { generateSecret, sign } from '@leadhook/webhooks';
import request from 'supertest';
import { createHarness, type Harness } from './testing/harness.js';

const TOKEN = randomBytes(16).toString('hex');
/** The address Twilio calls: a proxy in front of intake that strips /leadhook. */
const PUBLIC_BASE_URL = 'https://leads.example.test/leadhook';
const OUR_NUMBER = '+15125550100';

let h: Harness;
let server: Server;
/** Where intake really listens. */
let local: string;

beforeAll(async () => {
  h = await createHarness({
    options: { publicBaseUrl: PUBLIC_BASE_URL, twilioAuthToken: TOKEN },
  });
  server = createServer(h.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.queues
    .get('activity')
    .obliterate({ force: true })
    .catch(() => {});
  await h.close();
});

type Hook = 'status' | 'inbound';

/** A callback as Twilio sends it: to intake, signed over the public URL. */
function twilio(hook: Hook, params: TwilioCallbackParams, signature?: string | null) {
  const path = `/providers/twilio/${hook}`;
  return postTwilioCallback({
    url: local + path,
    signedUrl: PUBLIC_BASE_URL + path,
    authToken: TOKEN,
    params,
    ...(signature === undefined ? {} : { signature }),
  });
}

async function status(params: TwilioCallbackParams): Promise<unknown> {
  const answer = await twilio('status', params);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text);
}

interface TestLead {
  leadId: string;
  phone: string;
  accountId: string;
  enrollmentId: string;
}

/** An accepted lead (through intake) with an active play whose next step is scheduled. */
async function enrolledLead(
  spec: { phone?: string; accountId?: string; window?: number } = {},
): Promise<TestLead> {
  const source = await h.makeSource({
    ...(spec.accountId ? { accountId: spec.accountId } : {}),
    duplicateWindowDays: 0,
  });
  const res = await request(h.app)
    .post(source.path)
    .send(validLead(spec.phone ? { phone: spec.phone } : {}));
  expect(res.status).toBe(201);
  const leadId = String(res.body.lead_id);
  const lead = await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
  const enrollmentId = await anEnrollment(
    h.prisma,
    { leadId, playbookId: source.playbookId },
    { currentStep: 1, nextRunAt: new Date(Date.now() + 3_600_000) },
  );
  return { leadId, phone: lead.phone, accountId: source.accountId, enrollmentId };
}

/** A message or call as a Twilio send leaves it: provider twilio, the carrier's SID, queued. */
async function sentByTwilio(
  lead: TestLead,
  channel: 'sms' | 'call',
  overrides: { status?: string; carrierId?: string | null; provider?: string; at?: Date } = {},
): Promise<{ id: string; carrierId: string | null }> {
  const id = newId('providerMessage');
  const carrierId =
    overrides.carrierId === undefined
      ? `${channel === 'sms' ? 'SM' : 'CA'}${randomBytes(16).toString('hex')}`
      : overrides.carrierId;
  await h.prisma.providerMessage.create({
    data: {
      id,
      leadId: lead.leadId,
      enrollmentId: lead.enrollmentId,
      step: 0,
      channel,
      to: lead.phone,
      body: channel === 'sms' ? 'Hi' : null,
      provider: overrides.provider ?? 'twilio',
      carrierId,
      status: overrides.status ?? 'queued',
      attempts: 1,
      idempotencyKey: `${lead.enrollmentId}:${id}`,
      ...(overrides.at ? { createdAt: overrides.at } : {}),
    },
  });
  return { id, carrierId };
}

async function labels(leadId: string): Promise<string[]> {
  const rows = await h.prisma.activity.findMany({ where: { leadId }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.activityLabel);
}

async function row(id: string) {
  return h.prisma.providerMessage.findUniqueOrThrow({ where: { id } });
}

const sms = (sid: string | null, messageStatus: string, more: TwilioCallbackParams = {}) => ({
  MessageSid: String(sid),
  SmsSid: String(sid),
  MessageStatus: messageStatus,
  SmsStatus: messageStatus,
  AccountSid: `AC${'0'.repeat(32)}`,
  From: OUR_NUMBER,
  ApiVersion: '2010-04-01',
  ...more,
});

const call = (sid: string | null, callStatus: string, more: TwilioCallbackParams = {}) => ({
  CallSid: String(sid),
  CallStatus: callStatus,
  AccountSid: `AC${'0'.repeat(32)}`,
  From: OUR_NUMBER,
  Direction: 'outbound-api',
  ApiVersion: '2010-04-01',
  ...more,
});

describe('Twilio signature (X-Twilio-Signature over PUBLIC_BASE_URL + path)', () => {
  it('refuses an unsigned, wrongly signed or tampered callback and changes nothing', async () => {
    const lead = await enrolledLead();
    const sent = await sentByTwilio(lead, 'sms');
    const delivered = sms(sent.carrierId, 'delivered');
    const stop = {
      MessageSid: `SM${randomBytes(16).toString('hex')}`,
      From: lead.phone,
      To: OUR_NUMBER,
      Body: 'STOP',
    };
    const path = '/providers/twilio/status';

    const unsigned = await twilio('status', delivered, null);
    expect(unsigned.status).toBe(401);
    expect(JSON.parse(unsigned.text).errors[0].code).toBe('signature_required');
    expect((await twilio('inbound', stop, null)).status).toBe(401);

    const otherToken = twilioSignature(
      randomBytes(16).toString('hex'),
      PUBLIC_BASE_URL + path,
      delivered,
    );
    const wrong = await twilio('status', delivered, otherToken);
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.text).errors[0].code).toBe('signature_invalid');

    // Signed for 'sent', sent as 'delivered'.
    const forSent = twilioSignature(TOKEN, PUBLIC_BASE_URL + path, sms(sent.carrierId, 'sent'));
    expect((await twilio('status', delivered, forSent)).status).toBe(403);
    const forHello = twilioSignature(TOKEN, `${PUBLIC_BASE_URL}/providers/twilio/inbound`, {
      ...stop,
      Body: 'hello',
    });
    expect((await twilio('inbound', stop, forHello)).status).toBe(403);

    // Signed over the address intake listens on, not the one Twilio calls.
    const overLocal = twilioSignature(TOKEN, local + path, delivered);
    expect((await twilio('status', delivered, overLocal)).status).toBe(403);

    expect(await labels(lead.leadId)).toEqual([]);
    expect(await row(sent.id)).toMatchObject({ status: 'queued', errorCode: null });
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: lead.leadId } })).toMatchObject({
      optedOut: false,
      outcome: null,
    });
    expect(await h.prisma.providerInbound.count({ where: { leadId: lead.leadId } })).toBe(0);
  });

  it('verifies the query string Twilio called too', async () => {
    const lead = await enrolledLead();
    const sent = await sentByTwilio(lead, 'sms');
    const path = '/providers/twilio/status?leg=1';
    const params = sms(sent.carrierId, 'delivered');
    const signedWithout = twilioSignature(
      TOKEN,
      `${PUBLIC_BASE_URL}/providers/twilio/status`,
      params,
    );
    const refused = await postTwilioCallback({
      url: local + path,
      authToken: TOKEN,
      params,
      signature: signedWithout,
    });
    expect(refused.status).toBe(403);
    const accepted = await postTwilioCallback({
      url: local + path,
      signedUrl: PUBLIC_BASE_URL + path,
      authToken: TOKEN,
      params,
    });
    expect(accepted.status).toBe(200);
    expect(await labels(lead.leadId)).toEqual(['message_delivered']);
  });

  it('is not served without PROVIDER=twilio, and the simulation routes do not take Twilio', async () => {
    const simulationOnly = h.buildApp({
      options: { twilioAuthToken: null, providerWebhookSecret: generateSecret() },
    });
    const body = new URLSearchParams(sms('SMx', 'delivered')).toString();
    const path = '/providers/twilio/status';
    const res = await request(simulationOnly)
      .post(path)
      .set('content-type', 'application/x-www-form-urlencoded')
      .set(
        'x-twilio-signature',
        twilioSignature(TOKEN, PUBLIC_BASE_URL + path, sms('SMx', 'delivered')),
      )
      .send(body);
    expect(res.status).toBe(404);
    const secret = generateSecret();
    const withSecret = h.buildApp({
      options: { twilioAuthToken: null, providerWebhookSecret: secret },
    });
    const id = 'msg_twilio';
    const timestamp = Math.floor(Date.now() / 1000);
    const standard = await request(withSecret)
      .post(path)
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('webhook-id', id)
      .set('webhook-timestamp', String(timestamp))
      .set('webhook-signature', sign({ secrets: [secret], id, timestamp, body }))
      .send(body);
    expect(standard.status).toBe(404);
  });
});

describe('POST /providers/twilio/status: messages', () => {
  it('delivered once: retries, a late sent and a later undelivered change nothing', async () => {
    const lead = await enrolledLead();
    const sent = await sentByTwilio(lead, 'sms');
    expect(await status(sms(sent.carrierId, 'sent'))).toEqual({ status: 'unchanged' });
    expect(await row(sent.id)).toMatchObject({ status: 'queued' });

    // Twilio's retry racing the first delivery.
    const both = await Promise.all([
      status(sms(sent.carrierId, 'delivered')),
      status(sms(sent.carrierId, 'delivered')),
    ]);
    expect(both).toContainEqual({ status: 'recorded' });
    expect(both).toContainEqual({ status: 'unchanged' });
    expect(await status(sms(sent.carrierId, 'sent'))).toEqual({ status: 'unchanged' });
    expect(await status(sms(sent.carrierId, 'undelivered', { ErrorCode: '30003' }))).toEqual({
      status: 'unchanged',
    });

    expect(await labels(lead.leadId)).toEqual(['message_delivered']);
    expect(await row(sent.id)).toMatchObject({ status: 'delivered', errorCode: null });
    const activity = await h.prisma.activity.findFirstOrThrow({ where: { leadId: lead.leadId } });
    expect(activity.data).toEqual({ step: 0, provider_message_id: sent.id, status: 'delivered' });
    expect(activity.enrollmentId).toBe(lead.enrollmentId);
  });

  it('undelivered with 21610 is the outcome opted_out and puts the phone on the do-not-contact list', async () => {
    const lead = await enrolledLead();
    const sent = await sentByTwilio(lead, 'sms');
    const optedOut = sms(sent.carrierId, 'undelivered', { ErrorCode: '21610' });
    expect(await status(optedOut)).toEqual({ status: 'recorded' });
    expect(await status(optedOut)).toEqual({ status: 'unchanged' });

    expect(await labels(lead.leadId)).toContain('opted_out');
    expect((await labels(lead.leadId)).filter((l) => l === 'opted_out')).toHaveLength(1);
    expect(await row(sent.id)).toMatchObject({ status: 'opted_out', errorCode: '21610' });
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: lead.leadId } })).toMatchObject({
      outcome: 'opted_out',
    });
    expect(
      await h.prisma.suppression.findUniqueOrThrow({
        where: { accountId_phone: { accountId: lead.accountId, phone: lead.phone } },
      }),
    ).toMatchObject({ reason: 'opted_out', leadId: lead.leadId });
  });

  it.each([
    ['undelivered', '30006'],
    ['failed', '21211'],
    ['failed', '21614'],
  ])('%s with %s: the number cannot take SMS, the outcome undeliverable', async (st, code) => {
    const lead = await enrolledLead();
    const sent = await sentByTwilio(lead, 'sms');
    expect(await status(sms(sent.carrierId, st, { ErrorCode: code }))).toEqual({
      status: 'recorded',
    });
    expect(await labels(lead.leadId)).toContain('undeliverable');
    expect(await row(sent.id)).toMatchObject({ status: 'undeliverable', errorCode: code });
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: lead.leadId } })).toMatchObject({
      outcome: 'undeliverable',
    });
  });

  it('undelivered with a passing error is message_failed, and the play goes on', async () => {
    const lead = await enrolledLead();
    const sent = await sentByTwilio(lead, 'sms');
    expect(await status(sms(sent.carrierId, 'undelivered', { ErrorCode: '30003' }))).toEqual({
      status: 'recorded',
    });
    expect(await labels(lead.leadId)).toEqual(['message_failed']);
    expect(await row(sent.id)).toMatchObject({ status: 'failed', errorCode: '30003' });
    expect(
      await h.prisma.enrollment.findUniqueOrThrow({ where: { id: lead.enrollmentId } }),
    ).toMatchObject({ status: 'active' });
  });

  it('finds a SID the worker commits just after Twilio called back', async () => {
    const lead = await enrolledLead();
    const sent = await sentByTwilio(lead, 'sms', { status: 'sending', carrierId: null });
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const answer = status(sms(sid, 'delivered'));
    // The worker's commit of Twilio's 201, a moment after the callback arrived.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await h.prisma.providerMessage.update({
      where: { id: sent.id },
      data: { carrierId: sid, status: 'queued' },
    });
    expect(await answer).toEqual({ status: 'recorded' });
    expect(await labels(lead.leadId)).toEqual(['message_delivered']);
  });

  it('holds a final status whose SID no message holds after looking again; a progress report of one is ignored at once', async () => {
    const lead = await enrolledLead();
    const pending = await sentByTwilio(lead, 'sms', { status: 'sending', carrierId: null });
    const other = await sentByTwilio(lead, 'sms', { provider: 'simulation' });
    const unknown = `SM${randomBytes(16).toString('hex')}`;
    const started = Date.now();
    const answers = await Promise.all([
      status(sms(unknown, 'undelivered', { ErrorCode: '30003' })),
      // Another provider's row with the same id is not Twilio's.
      status(sms(other.carrierId, 'delivered')),
    ]);
    expect(answers).toEqual([
      { status: 'held', reason: 'message_not_found' },
      { status: 'held', reason: 'message_not_found' },
    ]);
    // After the looks again (200 + 400 + 800 ms).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    const held = await h.prisma.providerHeldStatus.findMany({
      where: { carrierId: { in: [unknown, String(other.carrierId)] } },
      orderBy: { carrierId: 'asc' },
    });
    expect(held).toHaveLength(2);
    expect(held.find((r) => r.carrierId === unknown)).toMatchObject({
      provider: 'twilio',
      channel: 'sms',
      status: 'failed',
      errorCode: '30003',
    });

    const quick = Date.now();
    expect(await status(sms(`SM${randomBytes(16).toString('hex')}`, 'sent'))).toEqual({
      status: 'ignored',
      reason: 'message_not_found',
    });
    expect(Date.now() - quick).toBeLessThan(1000);
    expect(await row(pending.id)).toMatchObject({ status: 'sending' });
    expect(await labels(lead.leadId)).toEqual([]);
  });

  it('a held status is recorded once the worker commits its SID, and Twilio’s copy changes nothing', async () => {
    const lead = await enrolledLead();
    const pending = await sentByTwilio(lead, 'call', { status: 'sending', carrierId: null });
    const sid = `CA${randomBytes(16).toString('hex')}`;
    const voicemail = call(sid, 'completed', { AnsweredBy: 'machine_end_beep' });
    expect(await status(voicemail)).toEqual({ status: 'held', reason: 'message_not_found' });
    expect(await labels(lead.leadId)).toEqual([]);

    // The worker: the provider commits the SID and learns statuses wait; the
    // step applies them in its transaction (services/playbook-worker step.runner.ts).
    const { rows } = await h.pool.query<{ held: boolean }>(
      `SELECT provider_message_adopt($1, $2) AS held`,
      [pending.id, sid],
    );
    expect(rows[0]?.held).toBe(true);
    const step = await h.pool.connect();
    try {
      await step.query('BEGIN');
      const applied = await applyHeldStatuses(step, pending.id);
      await step.query('COMMIT');
      expect(applied.map((a) => a.label)).toEqual(['voicemail_left']);
    } finally {
      step.release();
    }

    expect(await status(voicemail)).toEqual({ status: 'unchanged' });
    expect(await labels(lead.leadId)).toEqual(['voicemail_left']);
    expect(await row(pending.id)).toMatchObject({ status: 'voicemail', carrierId: sid });
    expect(await h.prisma.providerHeldStatus.count({ where: { carrierId: sid } })).toBe(0);
  });
});

describe('POST /providers/twilio/status: calls', () => {
  it.each([
    ['machine_end_beep', 'voicemail', 'voicemail_left'],
    ['machine_start', 'voicemail', 'voicemail_left'],
    ['human', 'answered', 'call_answered'],
    ['unknown', 'answered', 'call_answered'],
    [undefined, 'answered', 'call_answered'],
  ])('completed, AnsweredBy %s: %s', async (answeredBy, stored, label) => {
    const lead = await enrolledLead();
    const placed = await sentByTwilio(lead, 'call');
    expect(await status(call(placed.carrierId, 'ringing'))).toEqual({ status: 'unchanged' });
    const completed = call(
      placed.carrierId,
      'completed',
      answeredBy ? { AnsweredBy: answeredBy } : {},
    );
    expect(await status(completed)).toEqual({ status: 'recorded' });
    expect(await status(completed)).toEqual({ status: 'unchanged' });
    expect(await status(call(placed.carrierId, 'in-progress'))).toEqual({ status: 'unchanged' });
    expect(await labels(lead.leadId)).toEqual([label]);
    expect(await row(placed.id)).toMatchObject({ status: stored });
  });

  it.each(['busy', 'no-answer', 'failed', 'canceled'])(
    '%s: the call failed, with no activity beyond the step’s call_attempted',
    async (callStatus) => {
      const lead = await enrolledLead();
      const placed = await sentByTwilio(lead, 'call');
      expect(await status(call(placed.carrierId, callStatus))).toEqual({ status: 'recorded' });
      expect(await status(call(placed.carrierId, 'completed', { AnsweredBy: 'human' }))).toEqual({
        status: 'unchanged',
      });
      expect(await labels(lead.leadId)).toEqual([]);
      expect(await row(placed.id)).toMatchObject({ status: 'failed' });
    },
  );
});

describe('POST /providers/twilio/inbound', () => {
  const inbound = (from: string, body: string, sid = `SM${randomBytes(16).toString('hex')}`) => ({
    MessageSid: sid,
    SmsSid: sid,
    AccountSid: `AC${'0'.repeat(32)}`,
    From: from,
    To: OUR_NUMBER,
    Body: body,
    NumMedia: '0',
  });

  it('STOP opts the lead out through the activity path, once however often Twilio sends it; answers empty TwiML', async () => {
    const lead = await enrolledLead();
    const stop = inbound(lead.phone, 'Stop');
    const first = await twilio('inbound', stop);
    expect(first.status).toBe(200);
    expect(first.contentType).toMatch(/^text\/xml/);
    expect(first.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    const again = await twilio('inbound', stop);
    expect(again).toEqual(first);

    expect(await labels(lead.leadId)).toEqual(['message_received', 'stopped', 'opted_out']);
    const received = await h.prisma.activity.findFirstOrThrow({
      where: { leadId: lead.leadId, activityLabel: 'message_received' },
    });
    expect(received.data).toEqual({
      body: 'Stop',
      provider: 'twilio',
      provider_message_id: stop.MessageSid,
    });
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: lead.leadId } })).toMatchObject({
      outcome: 'opted_out',
      optedOut: true,
    });
    expect(
      await h.prisma.suppression.findUniqueOrThrow({
        where: { accountId_phone: { accountId: lead.accountId, phone: lead.phone } },
      }),
    ).toMatchObject({ reason: 'opted_out' });
  });

  it('a reply goes to the lead last messaged at that number, across accounts', async () => {
    const phone = String(validLead().phone);
    const older = await enrolledLead({ phone });
    const newer = await enrolledLead({ phone });
    expect(newer.accountId).not.toBe(older.accountId);
    const earlier = new Date(Date.now() - 60_000);
    await sentByTwilio(newer, 'sms', { at: earlier });
    await sentByTwilio(older, 'sms');
    // The simulation's rows are not Twilio's messages.
    await sentByTwilio(newer, 'sms', { provider: 'simulation', carrierId: null });

    expect((await twilio('inbound', inbound(phone, 'Who is this?'))).status).toBe(200);
    expect(await labels(older.leadId)).toEqual(['message_received']);
    expect(await labels(newer.leadId)).toEqual([]);

    await sentByTwilio(newer, 'call');
    expect((await twilio('inbound', inbound(phone, 'Call me later'))).status).toBe(200);
    expect(await labels(newer.leadId)).toEqual(['message_received']);
    expect(await labels(older.leadId)).toEqual(['message_received']);
  });

  it('answers a number leadhook never wrote to with empty TwiML, recording nothing', async () => {
    const answer = await twilio('inbound', inbound('+15125550199', 'hi'));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('<Response/>');
  });
});
