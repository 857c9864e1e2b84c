import { randomBytes } from 'node:crypto';
import { inTransaction, type RecordedActivity } from '@leadhook/activities';
import { createPool, createPrisma, newId, type Pool, type PrismaClient } from '@leadhook/db';
import { createLogger } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import {
  aLead,
  aLeadOwner,
  anEnrollment,
  createTestDatabase,
  type LeadOwner,
  TEST_REDIS_URL,
  type TestDatabase,
  waitFor,
} from '@leadhook/testkit';
import {
  applyHeldStatuses,
  applyStrandedHeldStatuses,
  type CarrierStatus,
  type CarrierStatusHoldResult,
  holdCarrierStatus,
  type ProviderHookDeps,
  receiveCarrierStatus,
} from './inbound.js';

/**
 * Statuses a carrier reports before the worker commits the message's SID
 * (docs/operations.md, "Twilio's callbacks"): intake holds them
 * (holdCarrierStatus), the commit of the SID (provider_message_adopt) says
 * they wait, and the step applies them (applyHeldStatuses), exactly once
 * however the two interleave.
 */

const logger = createLogger({ service: 'test', level: 'silent' });
const prefix = `held${randomBytes(4).toString('hex')}`;

let db: TestDatabase;
let prisma: PrismaClient;
let pool: Pool;
let queues: QueueSet;
let owner: LeadOwner;
let deps: ProviderHookDeps;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 2 });
  // Intake, the worker's commit, the step's transaction and the test's locks at once.
  pool = createPool({ databaseUrl: db.url, max: 8 });
  queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
  owner = await aLeadOwner(prisma);
  deps = { pool, queues, logger };
});

afterAll(async () => {
  await queues.get('activity').obliterate({ force: true });
  await queues.close();
  await prisma.$disconnect();
  await pool.end();
  await db.drop();
});

/**
 * A step's SMS as the Twilio provider leaves it between its row's commit and
 * Twilio's 201: of step 0 of an active play at that step (its claim not
 * committed yet).
 */
async function sending(): Promise<{ id: string; leadId: string; sid: string; playId: string }> {
  const lead = await aLead(prisma, owner);
  const playId = await anEnrollment(prisma, { leadId: lead.id, playbookId: owner.playbookId });
  const id = newId('providerMessage');
  await prisma.providerMessage.create({
    data: {
      id,
      leadId: lead.id,
      enrollmentId: playId,
      step: 0,
      channel: 'sms',
      to: lead.phone,
      body: 'Hi',
      provider: 'twilio',
      status: 'sending',
      attempts: 1,
      idempotencyKey: `step-${id}-0`,
    },
  });
  return { id, leadId: lead.id, sid: `SM${randomBytes(16).toString('hex')}`, playId };
}

function report(
  sid: string,
  status: 'delivered' | 'failed' | 'undeliverable' | null,
  errorCode: string | null = null,
): CarrierStatus {
  return { provider: 'twilio', carrierId: sid, channel: 'sms', status, errorCode };
}

/** What intake does once its looks for the SID found none. */
async function intake(callback: CarrierStatus): Promise<CarrierStatusHoldResult> {
  const found = await receiveCarrierStatus(deps, callback);
  if (found.kind !== 'message_not_found') return found;
  return holdCarrierStatus(deps, callback, new Date());
}

/** The provider's commit of the SID (its own statement): whether statuses wait. */
async function adopt(id: string, sid: string): Promise<boolean> {
  const { rows } = await pool.query<{ held: boolean }>(
    `SELECT provider_message_adopt($1, $2) AS held`,
    [id, sid],
  );
  return rows[0]?.held === true;
}

/** The step's transaction: the lead's lock (its claim), then the held statuses. */
function stepApplies(id: string, leadId: string): Promise<RecordedActivity[]> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT 1 FROM leads WHERE id = $1 FOR NO KEY UPDATE', [leadId]);
    return applyHeldStatuses(client, id);
  });
}

/**
 * A step as the worker runs it: its transaction holds the lead's lock (the
 * claim) while the provider commits the SID on a connection of its own; told
 * that statuses wait, the step applies them before it commits.
 */
function worker(id: string, leadId: string, sid: string): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT 1 FROM leads WHERE id = $1 FOR NO KEY UPDATE', [leadId]);
    const held = await adopt(id, sid);
    if (held) await applyHeldStatuses(client, id);
    return held;
  });
}

async function labels(leadId: string): Promise<string[]> {
  const rows = await prisma.activity.findMany({ where: { leadId }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.activityLabel);
}

async function heldRows(sid: string): Promise<number> {
  return prisma.providerHeldStatus.count({ where: { provider: 'twilio', carrierId: sid } });
}

/** Sessions of this database waiting for a lock, running `like`. */
async function waiting(like: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
    [like],
  );
  return rows[0]?.n ?? 0;
}

describe('a carrier status that comes before its SID is committed', () => {
  it('is held, then applied once by the step whose commit of the SID finds it', async () => {
    const message = await sending();
    const delivered = report(message.sid, 'delivered');
    expect(await intake(delivered)).toEqual({ kind: 'held' });
    const held = await prisma.providerHeldStatus.findFirstOrThrow({
      where: { carrierId: message.sid },
    });
    expect(held).toMatchObject({
      provider: 'twilio',
      channel: 'sms',
      status: 'delivered',
      errorCode: null,
    });
    expect(await labels(message.leadId)).toEqual([]);

    expect(await adopt(message.id, message.sid)).toBe(true);
    const applied = await stepApplies(message.id, message.leadId);
    expect(applied.map((a) => a.label)).toEqual(['message_delivered']);
    // Applied and gone: the same step again, or Twilio's copy, records nothing more.
    expect(await stepApplies(message.id, message.leadId)).toEqual([]);
    expect(await intake(delivered)).toEqual({ kind: 'unchanged' });

    expect(await labels(message.leadId)).toEqual(['message_delivered']);
    expect(await heldRows(message.sid)).toBe(0);
    const row = await prisma.providerMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect(row).toMatchObject({ status: 'delivered', carrierId: message.sid });
    const activity = await prisma.activity.findFirstOrThrow({ where: { leadId: message.leadId } });
    expect(activity.data).toEqual({
      step: 0,
      provider_message_id: message.id,
      status: 'delivered',
    });
  });

  it('applies held statuses in the order received: the first final one is the message’s', async () => {
    const message = await sending();
    expect(await intake(report(message.sid, 'failed', '30003'))).toEqual({ kind: 'held' });
    expect(await intake(report(message.sid, 'delivered'))).toEqual({ kind: 'held' });
    // A call's status for an SMS's SID changes nothing, as when it finds the row.
    expect(
      await holdCarrierStatus(
        deps,
        {
          provider: 'twilio',
          carrierId: message.sid,
          channel: 'call',
          status: 'answered',
          errorCode: null,
        },
        new Date(),
      ),
    ).toEqual({ kind: 'held' });
    // A progress report would change nothing: never held.
    expect(await intake(report(message.sid, null))).toEqual({ kind: 'message_not_found' });
    expect(await heldRows(message.sid)).toBe(3);

    expect(await worker(message.id, message.leadId, message.sid)).toBe(true);
    expect(await labels(message.leadId)).toEqual(['message_failed']);
    const row = await prisma.providerMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect(row).toMatchObject({ status: 'failed', errorCode: '30003' });
    expect(await heldRows(message.sid)).toBe(0);
  });

  it('a hold that waits for the commit’s lock finds the SID and records the status itself', async () => {
    const message = await sending();
    const key = await pool.connect();
    let commit: Promise<boolean> | undefined;
    let hold: Promise<CarrierStatusHoldResult> | undefined;
    try {
      // The id's advisory lock, so the commit and the hold queue behind it in that order.
      await key.query('BEGIN');
      await key.query(`SELECT pg_advisory_xact_lock(provider_status_lock_key('twilio', $1))`, [
        message.sid,
      ]);
      commit = adopt(message.id, message.sid);
      await waitFor(async () => (await waiting('%provider_message_adopt%')) === 1);
      hold = holdCarrierStatus(deps, report(message.sid, 'delivered'), new Date());
      await waitFor(async () => (await waiting('%provider_status_hold%')) === 1);
    } finally {
      await key.query('COMMIT');
      key.release();
    }
    // The commit saw nothing held; the hold then saw the SID committed.
    expect(await commit).toBe(false);
    expect(await hold).toEqual({ kind: 'recorded', activities: [expect.anything()] });
    expect(await labels(message.leadId)).toEqual(['message_delivered']);
    expect(await heldRows(message.sid)).toBe(0);
  });

  it('records the status once however intake’s hold and the worker’s commit interleave', async () => {
    // Random offsets of a few ms: in about one round in five the hold comes
    // first and the commit's step applies it, otherwise intake finds the SID.
    for (let i = 0; i < 40; i++) {
      const message = await sending();
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      await Promise.all([
        pause(Math.random() * 4).then(() => intake(report(message.sid, 'delivered'))),
        pause(Math.random() * 4).then(() => worker(message.id, message.leadId, message.sid)),
      ]);
      expect(await labels(message.leadId)).toEqual(['message_delivered']);
      expect(await heldRows(message.sid)).toBe(0);
      const row = await prisma.providerMessage.findUniqueOrThrow({ where: { id: message.id } });
      expect(row.status).toBe('delivered');
    }
  });

  it('the reconciler applies held statuses whose step will not run again, and only those', async () => {
    const message = await sending();
    expect(await intake(report(message.sid, 'delivered'))).toEqual({ kind: 'held' });
    // The try that committed the SID died before its step's transaction committed.
    expect(await adopt(message.id, message.sid)).toBe(true);

    // Its play is still at that step: the step's next try applies them.
    expect(await applyStrandedHeldStatuses(deps)).toBe(0);
    expect(await heldRows(message.sid)).toBe(1);

    // The play stopped meanwhile (a STOP, an outcome through the API): no try comes.
    await prisma.enrollment.update({ where: { id: message.playId }, data: { status: 'stopped' } });
    expect(await applyStrandedHeldStatuses(deps)).toBe(1);
    expect(await applyStrandedHeldStatuses(deps)).toBe(0);
    expect(await labels(message.leadId)).toEqual(['message_delivered']);
    expect(await heldRows(message.sid)).toBe(0);
  });
});
