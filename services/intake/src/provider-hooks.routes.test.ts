import type { RequestListener } from 'node:http';
import { newId } from '@leadhook/db';
import { SimulationProvider } from '@leadhook/providers';
import { anEnrollment, validLead } from '@leadhook/testkit';
import { generateSecret, sign } from '@leadhook/webhooks';
import request from 'supertest';
import { createHarness, type Harness } from './testing/harness.js';

const SECRET = generateSecret();
let h: Harness;
let app: RequestListener;

beforeAll(async () => {
  h = await createHarness({ options: { providerWebhookSecret: SECRET } });
  app = h.app;
});
afterAll(async () => {
  await h.queues
    .get('activity')
    .obliterate({ force: true })
    .catch(() => {});
  await h.close();
});

/** An accepted lead (through intake) with an active play whose next step is scheduled. */
async function enrolledLead(): Promise<{ leadId: string; phone: string; enrollmentId: string }> {
  const source = await h.makeSource();
  const res = await request(app).post(source.path).send(validLead());
  expect(res.status).toBe(201);
  const leadId = String(res.body.lead_id);
  const lead = await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
  const enrollmentId = await anEnrollment(
    h.prisma,
    { leadId, playbookId: source.playbookId },
    { currentStep: 1, nextRunAt: new Date(Date.now() + 3_600_000) },
  );
  return { leadId, phone: lead.phone, enrollmentId };
}

function signed(
  path: string,
  body: string,
  contentType: string,
  options: { secret?: string; timestamp?: number; id?: string } = {},
) {
  const id = options.id ?? `msg_${newId('activity')}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return request(app)
    .post(path)
    .set('content-type', contentType)
    .set('webhook-id', id)
    .set('webhook-timestamp', String(timestamp))
    .set('webhook-signature', sign({ secrets: [options.secret ?? SECRET], id, timestamp, body }))
    .send(body);
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

async function labels(leadId: string): Promise<string[]> {
  const rows = await h.prisma.activity.findMany({ where: { leadId }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.activityLabel);
}

describe('POST /providers/{provider}/inbound', () => {
  it('a STOP from the carrier stops the play and yields opted_out, once however often it is sent', async () => {
    const { leadId, phone, enrollmentId } = await enrolledLead();
    const body = form({
      MessageSid: `SM${leadId}`,
      From: phone,
      To: '+15125550100',
      Body: ' stop ',
    });
    const first = await signed('/providers/simulation/inbound', body, FORM);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'recorded', lead_id: leadId });
    // The carrier retries the same message (a new delivery id, the same message id).
    const again = await signed('/providers/simulation/inbound', body, FORM);
    expect(again.body).toEqual({ status: 'duplicate', lead_id: leadId });

    expect(await labels(leadId)).toEqual(['message_received', 'stopped', 'opted_out']);
    expect(
      await h.prisma.enrollment.findUniqueOrThrow({ where: { id: enrollmentId } }),
    ).toMatchObject({ status: 'stopped', nextRunAt: null });
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).toMatchObject({
      outcome: 'opted_out',
      optedOut: true,
    });
  });

  it('a phone that replied STOP is still accepted at intake, with the same answer, from another source', async () => {
    // No duplicate window: the second lead is a new lead, not a duplicate of the first.
    const first = await h.makeSource({ duplicateWindowDays: 0 });
    const phone = String(validLead().phone);
    const a = await request(app).post(first.path).send(validLead({ phone }));
    expect(a.status).toBe(201);
    const stop = form({ MessageSid: `SM-dnc-${a.body.lead_id}`, From: phone, Body: 'STOP' });
    expect((await signed('/providers/simulation/inbound', stop, FORM)).status).toBe(200);
    const lead = await h.prisma.lead.findUniqueOrThrow({ where: { id: String(a.body.lead_id) } });
    expect(
      await h.prisma.suppression.findUniqueOrThrow({
        where: { accountId_phone: { accountId: first.accountId, phone: lead.phone } },
      }),
    ).toMatchObject({ reason: 'opted_out', leadId: lead.id });

    const second = await h.makeSource({ accountId: first.accountId });
    const b = await request(app).post(second.path).send(validLead({ phone }));
    expect(b.status).toBe(201);
    expect(Object.keys(b.body).sort()).toEqual(Object.keys(a.body).sort());
    expect(b.body).toMatchObject({ status: a.body.status });
    expect(b.body.lead_id).not.toBe(a.body.lead_id);
  });

  it('takes JSON with our field names; an ordinary reply is only recorded', async () => {
    const { leadId, phone } = await enrolledLead();
    const body = JSON.stringify({ message_id: 'm-1', from: phone, body: 'Call me after 5' });
    const res = await signed('/providers/simulation/inbound', body, JSON_TYPE);
    expect(res.status).toBe(200);
    expect(await labels(leadId)).toEqual(['message_received']);
    const activity = await h.prisma.activity.findFirstOrThrow({ where: { leadId } });
    expect(activity.data).toEqual({
      body: 'Call me after 5',
      provider: 'simulation',
      provider_message_id: 'm-1',
    });
  });

  it('answers a reply from an unknown number without recording anything', async () => {
    const body = form({ MessageSid: 'SMx', From: '+15125550199', Body: 'hi' });
    const res = await signed('/providers/simulation/inbound', body, FORM);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ignored', reason: 'lead_not_found' });
  });

  it('refuses an unsigned, wrongly signed or stale request and changes nothing', async () => {
    const { leadId, phone } = await enrolledLead();
    const body = form({ MessageSid: `SM-bad-${leadId}`, From: phone, Body: 'STOP' });

    const unsigned = await request(app)
      .post('/providers/simulation/inbound')
      .set('content-type', FORM)
      .send(body);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.errors[0].code).toBe('signature_required');

    const otherSecret = await signed('/providers/simulation/inbound', body, FORM, {
      secret: generateSecret(),
    });
    expect(otherSecret.status).toBe(403);
    expect(otherSecret.body.errors[0].code).toBe('signature_invalid');

    const stale = await signed('/providers/simulation/inbound', body, FORM, {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(stale.status).toBe(403);

    // Signed for one body, sent with another.
    const id = 'msg_tampered';
    const timestamp = Math.floor(Date.now() / 1000);
    const tampered = await request(app)
      .post('/providers/simulation/inbound')
      .set('content-type', FORM)
      .set('webhook-id', id)
      .set('webhook-timestamp', String(timestamp))
      .set('webhook-signature', sign({ secrets: [SECRET], id, timestamp, body: 'Body=hi' }))
      .send(body);
    expect(tampered.status).toBe(403);

    expect(await labels(leadId)).toEqual([]);
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).toMatchObject({
      optedOut: false,
      outcome: null,
    });
  });

  it('answers 422 naming each missing field, 415 for other bodies, 404 for an unknown provider', async () => {
    const res = await signed('/providers/simulation/inbound', form({ Body: 'hi' }), FORM);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['message_id', 'from']);
    expect((await signed('/providers/simulation/inbound', 'hi', 'text/plain')).status).toBe(415);
    expect((await signed('/providers/simulation/inbound', '[1]', JSON_TYPE)).status).toBe(400);
    expect((await signed('/providers/acme/inbound', form({ Body: 'x' }), FORM)).status).toBe(404);
  });

  it('is not served at all without PROVIDER_WEBHOOK_SECRET', async () => {
    const off = h.buildApp({ options: { providerWebhookSecret: null } });
    const res = await request(off)
      .post('/providers/simulation/inbound')
      .set('content-type', FORM)
      .send(form({ MessageSid: 'SM1', From: '+15125550100', Body: 'STOP' }));
    expect(res.status).toBe(404);
  });
});

describe('POST /providers/{provider}/status', () => {
  it('marks a message delivered or failed, once; refuses an unknown message or status', async () => {
    const { leadId, phone, enrollmentId } = await enrolledLead();
    const provider = new SimulationProvider({ prisma: h.prisma, pool: h.pool, sms: 'delivered' });
    const sent = await provider.sendSms({
      to: phone,
      body: 'Hi',
      idempotencyKey: `status-${leadId}`,
      ref: { leadId, enrollmentId, step: 0 },
    });
    const failed = form({ MessageSid: sent.providerMessageId, MessageStatus: 'failed' });
    const res = await signed('/providers/simulation/status', failed, FORM);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'recorded' });
    expect((await signed('/providers/simulation/status', failed, FORM)).body).toEqual({
      status: 'unchanged',
    });
    const delivered = JSON.stringify({ message_id: sent.providerMessageId, status: 'delivered' });
    expect((await signed('/providers/simulation/status', delivered, JSON_TYPE)).status).toBe(200);
    expect(await labels(leadId)).toEqual(['message_failed', 'message_delivered']);
    expect(
      (await h.prisma.providerMessage.findUniqueOrThrow({ where: { id: sent.providerMessageId } }))
        .status,
    ).toBe('delivered');

    const unknown = form({ MessageSid: 'pmsg_nope', MessageStatus: 'failed' });
    expect((await signed('/providers/simulation/status', unknown, FORM)).status).toBe(404);
    const voicemail = form({ MessageSid: sent.providerMessageId, MessageStatus: 'voicemail' });
    expect((await signed('/providers/simulation/status', voicemail, FORM)).status).toBe(422);
    const unsigned = await request(app)
      .post('/providers/simulation/status')
      .set('content-type', FORM)
      .send(form({ MessageSid: sent.providerMessageId, MessageStatus: 'failed' }));
    expect(unsigned.status).toBe(401);
    expect(await labels(leadId)).toEqual(['message_failed', 'message_delivered']);
  });
});
