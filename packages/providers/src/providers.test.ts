import { randomBytes } from 'node:crypto';
import { createPool, createPrisma, newId, type Pool, type PrismaClient } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import {
  aLead,
  aLeadOwner,
  createTestDatabase,
  TEST_REDIS_URL,
  type TestDatabase,
} from '@leadhook/testkit';
import { receiveInbound, receiveStatusCallback } from './inbound.js';
import { SimulationProvider } from './simulation.provider.js';

const logger = createLogger({ service: 'test', level: 'silent' });

let db: TestDatabase;
let prisma: PrismaClient;
let pool: Pool;
let queues: QueueSet;
let accountId: string;
let playbookId: string;
let sourceId: string;
const prefix = `prov${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 4 });
  pool = createPool({ databaseUrl: db.url, max: 2 });
  queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
  ({ accountId, playbookId, sourceId } = await aLeadOwner(prisma));
});

afterAll(async () => {
  await queues.get('activity').obliterate({ force: true });
  await queues.close();
  await prisma.$disconnect();
  await pool.end();
  await db.drop();
});

async function lead(): Promise<{ leadId: string; phone: string }> {
  const { id: leadId, phone } = await aLead(prisma, { accountId, playbookId, sourceId });
  return { leadId, phone };
}

async function labels(leadId: string): Promise<string[]> {
  const rows = await prisma.activity.findMany({ where: { leadId }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.activityLabel);
}

describe('the simulation provider', () => {
  it('records an SMS with the configured outcome; the same idempotency key is one message', async () => {
    const { leadId, phone } = await lead();
    const provider = new SimulationProvider({ prisma, sms: 'failed' });
    const request = {
      to: phone,
      body: 'Hi',
      idempotencyKey: `k-${leadId}`,
      ref: { leadId, step: 0 },
    };
    const first = await provider.sendSms(request);
    expect(first.status).toBe('failed');
    expect(first.providerMessageId).toMatch(/^pmsg_/);
    const again = await provider.sendSms(request);
    expect(again).toEqual(first);
    const rows = await prisma.providerMessage.findMany({ where: { leadId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel: 'sms',
      to: phone,
      body: 'Hi',
      status: 'failed',
      step: 0,
    });
  });

  it('writes through a plain pg pool when given one, with the same idempotency', async () => {
    const { leadId, phone } = await lead();
    const provider = new SimulationProvider({ prisma, pool, call: 'answered' });
    const request = { to: phone, script: 'Hello', idempotencyKey: `p-${leadId}`, ref: { leadId } };
    const [first, second] = await Promise.all([
      provider.placeCall(request),
      provider.placeCall(request),
    ]);
    expect(first.status).toBe('answered');
    expect(second).toEqual(first);
    expect(await provider.placeCall(request)).toEqual(first);
    const rows = await prisma.providerMessage.findMany({ where: { leadId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: 'call', body: 'Hello', status: 'answered' });
  });

  it.each(['answered', 'voicemail', 'failed', 'undeliverable'] as const)(
    'answers a call with %s',
    async (outcome) => {
      const { leadId, phone } = await lead();
      const provider = new SimulationProvider({ prisma, call: outcome });
      const result = await provider.placeCall({
        to: phone,
        idempotencyKey: `c-${leadId}`,
        ref: { leadId },
      });
      expect(result.status).toBe(outcome);
      const row = await prisma.providerMessage.findUniqueOrThrow({
        where: { id: result.providerMessageId },
      });
      expect(row).toMatchObject({ channel: 'call', status: outcome, body: null });
    },
  );

  it('defaults to delivered SMS and voicemail calls', async () => {
    const { leadId, phone } = await lead();
    const provider = new SimulationProvider({ prisma });
    const ref = { leadId };
    expect(
      (await provider.sendSms({ to: phone, body: 'b', idempotencyKey: `d1-${leadId}`, ref }))
        .status,
    ).toBe('delivered');
    expect(
      (await provider.placeCall({ to: phone, idempotencyKey: `d2-${leadId}`, ref })).status,
    ).toBe('voicemail');
  });
});

describe('inbound messages and status callbacks', () => {
  const hooks = () => ({ pool, queues, logger });

  it("records a carrier's message once however often the carrier delivers it", async () => {
    const { leadId, phone } = await lead();
    const message = {
      phone,
      body: 'yes please',
      carrier: { provider: 'sim', messageId: `m-${leadId}` },
    };
    const results = await Promise.all([
      receiveInbound(hooks(), message),
      receiveInbound(hooks(), message),
      receiveInbound(hooks(), message),
    ]);
    expect(results.filter((r) => r.kind === 'recorded')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'duplicate')).toHaveLength(2);
    expect(await labels(leadId)).toEqual(['message_received']);
    const row = await prisma.activity.findFirstOrThrow({ where: { leadId } });
    expect(row.data).toEqual({
      body: 'yes please',
      provider: 'sim',
      provider_message_id: `m-${leadId}`,
    });
    // Another message of the same carrier is another reply.
    expect(
      await receiveInbound(hooks(), { ...message, carrier: { provider: 'sim', messageId: 'm2' } }),
    ).toMatchObject({ kind: 'recorded', leadId });
  });

  it('keeps nothing for a message to a lead that does not exist', async () => {
    expect(
      await receiveInbound(hooks(), {
        leadId: newId('lead'),
        body: 'x',
        carrier: { provider: 'sim', messageId: 'ghost' },
      }),
    ).toEqual({ kind: 'lead_not_found' });
    expect(await prisma.providerInbound.count({ where: { messageId: 'ghost' } })).toBe(0);
  });

  it('records a reply found by phone as message_received; STOP ends in opted_out', async () => {
    const { leadId, phone } = await lead();
    expect(await receiveInbound(hooks(), { phone, body: 'who is this?' })).toMatchObject({
      kind: 'recorded',
      leadId,
    });
    expect(await receiveInbound(hooks(), { leadId, body: 'STOP' })).toMatchObject({
      kind: 'recorded',
    });
    expect(await labels(leadId)).toEqual([
      'message_received',
      'message_received',
      'stopped',
      'opted_out',
    ]);
    const body = await prisma.activity.findFirstOrThrow({
      where: { leadId },
      orderBy: { id: 'asc' },
    });
    expect(body.data).toEqual({ body: 'who is this?' });
  });

  it('answers lead_not_found for an unknown phone', async () => {
    expect(await receiveInbound(hooks(), { phone: '+14155550000', body: 'x' })).toEqual({
      kind: 'lead_not_found',
    });
  });

  it('a status callback records its activity once, and refuses a status of the other channel', async () => {
    const { leadId, phone } = await lead();
    const provider = new SimulationProvider({ prisma, sms: 'delivered' });
    const sent = await provider.sendSms({
      to: phone,
      body: 'b',
      idempotencyKey: `s-${leadId}`,
      ref: { leadId, step: 2 },
    });
    const deps = hooks();
    const callback = { providerMessageId: sent.providerMessageId, status: 'failed' };
    expect((await receiveStatusCallback(deps, callback)).kind).toBe('recorded');
    expect(await receiveStatusCallback(deps, callback)).toEqual({ kind: 'unchanged' });
    expect(
      await receiveStatusCallback(deps, {
        providerMessageId: sent.providerMessageId,
        status: 'voicemail',
      }),
    ).toEqual({ kind: 'invalid_status' });
    expect(
      await receiveStatusCallback(deps, { providerMessageId: 'pmsg_nope', status: 'failed' }),
    ).toEqual({
      kind: 'message_not_found',
    });
    expect(await labels(leadId)).toEqual(['message_failed']);
    const activity = await prisma.activity.findFirstOrThrow({ where: { leadId } });
    expect(activity.data).toMatchObject({ step: 2, provider_message_id: sent.providerMessageId });
    expect(
      (await prisma.providerMessage.findUniqueOrThrow({ where: { id: sent.providerMessageId } }))
        .status,
    ).toBe('failed');
  });
});
