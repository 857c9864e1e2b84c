import type { TwilioSettings } from '@leadhook/config';
import { createPool, createPrisma, type Pool, type PrismaClient } from '@leadhook/db';
import {
  aLead,
  aLeadOwner,
  createTestDatabase,
  FakeTwilio,
  type TestDatabase,
} from '@leadhook/testkit';
import { ProviderCredentialsError, ProviderUnavailableError } from '../provider.js';
import { TwilioProvider } from './twilio.provider.js';

let db: TestDatabase;
let prisma: PrismaClient;
let pool: Pool;
let fake: FakeTwilio;
let owner: { accountId: string; playbookId: string; sourceId: string };

const FROM = '+14155550199';
const SERVICE = `MG${'ab'.repeat(16)}`;
const PUBLIC = 'https://leads.example.com';

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 2 });
  pool = createPool({ databaseUrl: db.url, max: 2 });
  owner = await aLeadOwner(prisma);
  fake = await FakeTwilio.start();
});

afterAll(async () => {
  await fake.close();
  await prisma.$disconnect();
  await pool.end();
  await db.drop();
});

function settings(overrides: Partial<TwilioSettings> = {}): TwilioSettings {
  return {
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    fromNumber: FROM,
    messagingServiceSid: null,
    apiBase: fake.url,
    ...overrides,
  };
}

function provider(overrides: Partial<TwilioSettings> = {}, maxAttempts = 3): TwilioProvider {
  return new TwilioProvider({
    pool,
    settings: settings(overrides),
    publicBaseUrl: PUBLIC,
    maxAttempts,
    timeoutMs: 5_000,
  });
}

async function sms(body = 'Hi Ana. Reply STOP to opt out.') {
  const lead = await aLead(prisma, owner);
  return {
    to: lead.phone,
    body,
    idempotencyKey: `step-${lead.id}-0`,
    ref: { leadId: lead.id, step: 0 },
  };
}

async function row(idempotencyKey: string) {
  return prisma.providerMessage.findUniqueOrThrow({ where: { idempotencyKey } });
}

describe('TwilioProvider against a fake Twilio', () => {
  it('sends an SMS from the number with Basic auth and the status callback, and answers queued', async () => {
    const request = await sms();
    const sent = await provider().sendSms(request);

    expect(sent.status).toBe('queued');
    const [post] = fake.posts('message').filter((p) => p.form.To === request.to);
    expect(post).toMatchObject({ authorized: true });
    expect(post?.form).toEqual({
      To: request.to,
      Body: request.body,
      From: FROM,
      StatusCallback: `${PUBLIC}/providers/twilio/status`,
    });
    const stored = await row(request.idempotencyKey);
    expect(stored).toMatchObject({
      id: sent.providerMessageId,
      provider: 'twilio',
      status: 'queued',
      attempts: 1,
      errorCode: null,
    });
    expect(stored.carrierId).toBe(fake.messages.find((m) => m.to === request.to)?.sid);
    expect(stored.carrierId).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it('sends through the Messaging Service when one is set', async () => {
    const request = await sms();
    await provider({ messagingServiceSid: SERVICE }).sendSms(request);
    const [post] = fake.posts('message').filter((p) => p.form.To === request.to);
    expect(post?.form.MessagingServiceSid).toBe(SERVICE);
    expect(post?.form.From).toBeUndefined();
  });

  it('places a call saying the script, with machine detection and the status callback', async () => {
    const request = await sms();
    const placed = await provider().placeCall({ ...request, script: 'Hello & welcome <Ana>' });
    expect(placed.status).toBe('queued');
    const [post] = fake.posts('call').filter((p) => p.form.To === request.to);
    expect(post?.form).toMatchObject({
      To: request.to,
      From: FROM,
      MachineDetection: 'DetectMessageEnd',
      StatusCallback: `${PUBLIC}/providers/twilio/status`,
      StatusCallbackEvent: 'completed',
    });
    expect(post?.form.Twiml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Hello &amp; welcome &lt;Ana&gt;</Say></Response>',
    );
    expect((await row(request.idempotencyKey)).carrierId).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it('fails a call clearly without TWILIO_FROM_NUMBER, calling nothing', async () => {
    const request = await sms();
    const before = fake.posts('call').length;
    const placed = await provider({ fromNumber: null, messagingServiceSid: SERVICE }).placeCall({
      ...request,
      script: 'Hi',
    });
    expect(placed).toMatchObject({
      status: 'failed',
      failure: { reason: 'no_from_number', errorCode: null },
    });
    expect(fake.posts('call')).toHaveLength(before);
  });

  it('a second try of a sent step answers its row and sends nothing', async () => {
    const request = await sms();
    const first = await provider().sendSms(request);
    const before = fake.posts('message').length;
    expect(await provider().sendSms(request)).toEqual(first);
    expect(fake.posts('message')).toHaveLength(before);
    // A callback recorded the delivery (and its activity) since: the step's
    // next try still answers what the send was, and records nothing of it again.
    await pool.query(`UPDATE provider_messages SET status = 'delivered' WHERE id = $1`, [
      first.providerMessageId,
    ]);
    expect(await provider().sendSms(request)).toEqual(first);
  });

  it.each([
    [21610, 'opted_out'],
    [21211, 'undeliverable'],
    [21614, 'undeliverable'],
  ])('maps Twilio error %d to %s', async (code, status) => {
    const request = await sms();
    fake.script('message', { kind: 'error', status: 400, code });
    const sent = await provider().sendSms(request);
    expect(sent).toEqual({ status, providerMessageId: expect.any(String) });
    expect(await row(request.idempotencyKey)).toMatchObject({
      status,
      errorCode: String(code),
      carrierId: null,
    });
  });

  it('another refusal fails the step as carrier_rejected with its code', async () => {
    const request = await sms();
    fake.script('message', { kind: 'error', status: 400, code: 21408 });
    const sent = await provider().sendSms(request);
    expect(sent.failure).toEqual({ reason: 'carrier_rejected', errorCode: '21408' });
  });

  it.each([
    [500, undefined],
    [429, 20429],
  ])('on %d sends nothing, asks to try again, and the next try sends', async (status, code) => {
    const request = await sms();
    fake.script('message', {
      kind: 'error',
      status,
      ...(code ? { code } : {}),
      retryAfterSeconds: 7,
    });
    const error = await provider()
      .sendSms(request)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ attempts: 1, retryAfterMs: 7000 });
    expect(await row(request.idempotencyKey)).toMatchObject({
      status: 'unsent',
      errorCode: String(code ?? status),
    });

    const sent = await provider().sendSms(request);
    expect(sent.status).toBe('queued');
    expect(await row(request.idempotencyKey)).toMatchObject({ status: 'queued', attempts: 2 });
    expect(fake.messages.filter((m) => m.to === request.to)).toHaveLength(1);
  });

  it('gives up as provider_unavailable when the last try is refused too', async () => {
    const request = await sms();
    fake.script('message', { kind: 'error', status: 503 }, { kind: 'error', status: 500 });
    await expect(provider({}, 2).sendSms(request)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const sent = await provider({}, 2).sendSms(request);
    expect(sent).toMatchObject({
      status: 'failed',
      failure: { reason: 'provider_unavailable', errorCode: '500' },
    });
    expect(await row(request.idempotencyKey)).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('refused credentials: ProviderCredentialsError, the try not counted', async () => {
    const request = await sms();
    const wrong = provider({ authToken: '0'.repeat(32) });
    await expect(wrong.sendSms(request)).rejects.toBeInstanceOf(ProviderCredentialsError);
    const refused = fake.requests.filter((r) => r.form.To === request.to);
    expect(refused).toEqual([expect.objectContaining({ kind: 'message', authorized: false })]);
    expect(await row(request.idempotencyKey)).toMatchObject({
      status: 'unsent',
      attempts: 0,
      errorCode: '20003',
    });
    expect((await provider().sendSms(request)).status).toBe('queued');
  });

  it('a send whose answer was lost is found at Twilio and adopted, not sent again', async () => {
    const request = await sms();
    fake.script('message', { kind: 'accept_and_drop' });
    await expect(provider().sendSms(request)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await row(request.idempotencyKey)).toMatchObject({ status: 'sending' });

    const sent = await provider().sendSms(request);
    expect(sent.status).toBe('queued');
    const accepted = fake.messages.filter((m) => m.to === request.to);
    expect(accepted).toHaveLength(1);
    expect(fake.posts('message').filter((p) => p.form.To === request.to)).toHaveLength(1);
    expect(await row(request.idempotencyKey)).toMatchObject({
      status: 'queued',
      carrierId: accepted[0]?.sid,
    });
    const lookup = fake.requests.find(
      (r) => r.kind === 'list-messages' && r.query.To === request.to,
    );
    expect(lookup?.query).toMatchObject({
      From: FROM,
      'DateSent>': new Date().toISOString().slice(0, 10),
    });
  });

  it('says when intake holds statuses of the sid it commits, after a 201 or an adoption', async () => {
    const hold = (sid: string) =>
      pool.query(`SELECT provider_status_hold('twilio', $1, 'sms', 'delivered', NULL, now())`, [
        sid,
      ]);
    // Twilio's callback came before the worker committed the 201's sid.
    const request = await sms();
    fake.script('message', {
      kind: 'accept',
      beforeAnswer: async (created) => void (await hold(created.sid)),
    });
    expect(await provider().sendSms(request)).toEqual({
      status: 'queued',
      providerMessageId: expect.any(String),
      heldStatuses: true,
    });
    // The step's try that applies them rolled back: its next try is told again.
    expect((await provider().sendSms(request)).heldStatuses).toBe(true);
    await pool.query('DELETE FROM provider_held_statuses');
    expect((await provider().sendSms(request)).heldStatuses).toBeUndefined();

    // The worker stopped before recording the sid; its next try adopts the message.
    const lost = await sms();
    fake.script('message', { kind: 'accept_and_drop' });
    await expect(provider().sendSms(lost)).rejects.toBeInstanceOf(ProviderUnavailableError);
    await hold(fake.messages.find((m) => m.to === lost.to)?.sid ?? '');
    expect(await provider().sendSms(lost)).toMatchObject({ status: 'queued', heldStatuses: true });
    await pool.query('DELETE FROM provider_held_statuses');

    // What Twilio's list says became of an adopted message is held like a callback.
    const listed = await sms();
    fake.script('message', { kind: 'accept_and_drop' });
    await expect(provider().sendSms(listed)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const record = fake.messages.find((m) => m.to === listed.to);
    if (record) record.status = 'delivered';
    expect(await provider().sendSms(listed)).toMatchObject({
      status: 'queued',
      heldStatuses: true,
    });
    expect(await row(listed.idempotencyKey)).toMatchObject({ status: 'queued' });
    const { rows } = await pool.query(
      'SELECT channel, status, error_code FROM provider_held_statuses WHERE carrier_id = $1',
      [record?.sid],
    );
    expect(rows).toEqual([{ channel: 'sms', status: 'delivered', error_code: null }]);
    await pool.query('DELETE FROM provider_held_statuses');
  });

  it('a lost call is found at Twilio and adopted', async () => {
    const request = await sms();
    fake.script('call', { kind: 'accept_and_drop' });
    const call = { ...request, script: 'Hi' };
    await expect(provider().placeCall(call)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect((await provider().placeCall(call)).status).toBe('queued');
    expect(fake.posts('call').filter((p) => p.form.To === request.to)).toHaveLength(1);
    expect((await row(request.idempotencyKey)).carrierId).toBe(
      fake.calls.find((c) => c.to === request.to)?.sid,
    );
  });

  it('a lost send Twilio does not list fails as send_unconfirmed, never sent again', async () => {
    const request = await sms();
    // An earlier message with another body to the same number is not taken for it.
    await provider().sendSms({
      ...request,
      idempotencyKey: `${request.idempotencyKey}-x`,
      body: 'Other',
    });
    fake.script('message', { kind: 'drop' });
    await expect(provider().sendSms(request)).rejects.toBeInstanceOf(ProviderUnavailableError);

    const sent = await provider().sendSms(request);
    expect(sent).toMatchObject({
      status: 'failed',
      failure: { reason: 'send_unconfirmed', errorCode: null },
    });
    expect(
      fake.posts('message').filter((p) => p.form.Body === request.body && p.form.To === request.to),
    ).toHaveLength(1);
    expect(await row(request.idempotencyKey)).toMatchObject({
      status: 'failed',
      errorCode: 'send_unconfirmed',
    });
    // Answered again the same way, without asking Twilio.
    expect(await provider().sendSms(request)).toEqual(sent);
  });

  it('no request leaves when Twilio is unreachable: the next try sends', async () => {
    const request = await sms();
    const closed = await FakeTwilio.start();
    const url = closed.url;
    await closed.close();
    await expect(provider({ apiBase: url }).sendSms(request)).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(await row(request.idempotencyKey)).toMatchObject({ status: 'unsent' });
    expect((await provider().sendSms(request)).status).toBe('queued');
  });
});
