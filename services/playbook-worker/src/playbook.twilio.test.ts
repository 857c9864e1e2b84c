import { type CarrierStatus, holdCarrierStatus, receiveCarrierStatus } from '@leadhook/providers';
import { anEnrollment, FakeTwilio, useHarness, waitFor } from '@leadhook/testkit';
import type { WorkerRuntime } from '@leadhook/worker-runtime';
import request from 'supertest';
import { runStep } from './step/step.runner.js';
import { Harness } from './testing/harness.js';

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

let fake: FakeTwilio;
beforeAll(async () => {
  fake = await FakeTwilio.start();
});
afterAll(async () => {
  await fake.close();
});

const FROM = '+14155550199';
const PATIENCE = { timeoutMs: 60_000 };

function twilioEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return { ...fake.settings(), TWILIO_FROM_NUMBER: FROM, ...overrides };
}

async function activities(leadId: string) {
  return h.prisma.activity.findMany({ where: { leadId }, orderBy: { id: 'asc' } });
}

async function startPlay(runtime: WorkerRuntime) {
  const source = await h.playbook([
    { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}' },
    { type: 'sms', delay_seconds: 0, template: 'Still there?' },
  ]);
  const lead = await h.lead(source);
  await runtime.queues.enqueue('enrollment', { lead_id: lead.leadId });
  return lead;
}

describe('the playbook worker with PROVIDER=twilio', () => {
  it('tries a step again after a 500 and texts the lead once', async () => {
    const { runtime } = await h.startWorker(twilioEnv({ PROVIDER_RETRY_SCHEDULE: '300ms,300ms' }));
    fake.script('message', { kind: 'error', status: 500 });
    const { leadId, phone } = await startPlay(runtime);

    await waitFor(async () => (await h.labels(leadId)).includes('message_sent'), PATIENCE);
    const first = fake.messages.filter((m) => m.to === phone && m.body?.startsWith('Hi Ana'));
    expect(first).toHaveLength(1);
    expect(first[0]?.body).toBe('Hi Ana Reply STOP to opt out.');
    expect(fake.posts('message').filter((p) => p.form.To === phone)).toHaveLength(3);

    const sent = (await activities(leadId)).filter((a) => a.activityLabel === 'first_message_sent');
    expect(sent).toHaveLength(1);
    const row = await h.prisma.providerMessage.findFirstOrThrow({ where: { leadId, step: 0 } });
    expect(row).toMatchObject({ status: 'queued', attempts: 2, carrierId: first[0]?.sid });
    expect(sent[0]?.data).toMatchObject({ step: 0, provider_message_id: row.id });
    // The second SMS carries no opt-out instruction: the play's first did.
    expect(fake.messages.find((m) => m.to === phone && m.body === 'Still there?')).toBeDefined();
  });

  it('records message_failed once the schedule is spent, and the play goes on', async () => {
    const { runtime } = await h.startWorker(twilioEnv({ PROVIDER_RETRY_SCHEDULE: '300ms' }));
    fake.script('message', { kind: 'error', status: 500 }, { kind: 'error', status: 503 });
    const { leadId, phone } = await startPlay(runtime);

    await waitFor(async () => (await h.labels(leadId)).includes('first_message_sent'), PATIENCE);
    const recorded = await activities(leadId);
    expect(recorded.map((a) => a.activityLabel).slice(0, 3)).toEqual([
      'started',
      'message_failed',
      'first_message_sent',
    ]);
    expect(recorded[1]?.data).toMatchObject({
      step: 0,
      channel: 'sms',
      reason: 'provider_unavailable',
      error_code: '503',
    });
    expect(recorded[2]?.data).toMatchObject({ step: 1 });
    // Nothing reached the lead at step 0; the next SMS is the play's first.
    expect(fake.messages.filter((m) => m.to === phone).map((m) => m.body)).toEqual([
      'Still there? Reply STOP to opt out.',
    ]);
  });

  it('Twilio 21610 ends the lead opted out and suppresses the phone, with no first_message_sent', async () => {
    const { runtime } = await h.startWorker(twilioEnv());
    fake.script('message', { kind: 'error', status: 400, code: 21610 });
    const { leadId, phone } = await startPlay(runtime);

    await waitFor(async () => (await h.labels(leadId)).includes('opted_out'), PATIENCE);
    expect(await h.labels(leadId)).toEqual(['started', 'stopped', 'opted_out']);
    expect(await h.prisma.suppression.count({ where: { accountId: h.accountId, phone } })).toBe(1);
  });

  it('refused credentials: unready naming them, no step taken, and a worker with good ones runs it', async () => {
    const { runtime, port } = await h.startWorker(
      twilioEnv({ TWILIO_AUTH_TOKEN: '0'.repeat(32), PROVIDER_RETRY_SCHEDULE: '300ms' }),
    );
    const { leadId, phone } = await startPlay(runtime);
    const http = request(`http://127.0.0.1:${port}`);

    const ready = await waitFor(async () => {
      const res = await http.get('/readyz');
      return res.status === 503 ? res : undefined;
    }, PATIENCE);
    expect(ready.body).toEqual({
      status: 'unavailable',
      checks: { postgres: 'ok', redis: 'ok', provider_credentials: 'unavailable' },
    });
    expect(fake.posts('message').filter((p) => p.form.To === phone)).toEqual([
      expect.objectContaining({ authorized: false }),
    ]);
    expect(await h.labels(leadId)).toEqual(['started']);
    const enrollment = await h.prisma.enrollment.findUniqueOrThrow({ where: { leadId } });
    expect(enrollment.currentStep).toBe(0);
    // It takes no more steps: the refused one waits, and nothing else is sent.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.posts('message').filter((p) => p.form.To === phone)).toHaveLength(1);

    await h.startWorker(twilioEnv({ PROVIDER_RETRY_SCHEDULE: '300ms' }));
    await waitFor(async () => (await h.labels(leadId)).includes('first_message_sent'), PATIENCE);
    expect(
      fake.messages.filter((m) => m.to === phone && m.body?.startsWith('Hi Ana')),
    ).toHaveLength(1);
  });

  it.each<[string, Pick<CarrierStatus, 'status' | 'errorCode'>, string[], string]>([
    [
      'delivered',
      { status: 'delivered', errorCode: null },
      ['first_message_sent', 'message_delivered'],
      'active',
    ],
    [
      'undelivered 30006',
      { status: 'undeliverable', errorCode: '30006' },
      ['first_message_sent', 'stopped', 'undeliverable'],
      'stopped',
    ],
  ])(
    'a status (%s) Twilio reports before the worker commits the SID is held, then recorded once with the step',
    async (_what, reported, labels, play) => {
      const { handle } = await h.startWorker(twilioEnv(), { reconcileIntervalMs: 600_000 });
      const source = await h.playbook([
        { type: 'sms', delay_seconds: 0, template: 'Hi' },
        { type: 'sms', delay_seconds: 3600, template: 'Later' },
      ]);
      const { leadId, phone } = await h.lead(source);
      const enrollmentId = await anEnrollment(
        h.prisma,
        { leadId, playbookId: source.playbookId },
        { nextRunAt: new Date(Date.now() - 10) },
      );
      // The test's connection locks the step's row before Twilio's 201 is
      // written, so the worker's commit of the SID waits as long as it holds it.
      const lock = await h.pool.connect();
      let sid = '';
      fake.scriptFor(phone, 'message', {
        kind: 'accept',
        beforeAnswer: async (created) => {
          sid = created.sid;
          await lock.query('BEGIN');
          await lock.query(
            'SELECT 1 FROM provider_messages WHERE idempotency_key = $1 FOR UPDATE',
            [`step-${enrollmentId}-0`],
          );
        },
      });
      const step = runStep(handle.deps, { enrollment_id: enrollmentId, step: 0 });
      try {
        await waitFor(async () => {
          const { rows } = await h.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
                AND wait_event_type = 'Lock' AND query LIKE '%provider_message_adopt%'`,
          );
          return rows[0]?.n === 1;
        }, PATIENCE);
        // Intake, its looks for the SID having found nothing: the status is held.
        const callback: CarrierStatus = {
          provider: 'twilio',
          carrierId: sid,
          channel: 'sms',
          ...reported,
        } as CarrierStatus;
        expect(await receiveCarrierStatus(handle.deps, callback)).toEqual({
          kind: 'message_not_found',
        });
        expect(await holdCarrierStatus(handle.deps, callback, new Date())).toEqual({
          kind: 'held',
        });
      } finally {
        await lock.query('COMMIT');
        lock.release();
      }

      expect(await step).toMatchObject({
        kind: 'ran',
        status: 'queued',
        next: play === 'active' ? { step: 1 } : 'stopped',
      });
      expect(await h.labels(leadId)).toEqual(labels);
      const message = await h.prisma.providerMessage.findFirstOrThrow({ where: { leadId } });
      expect(message).toMatchObject({
        carrierId: sid,
        status: reported.status,
        errorCode: reported.errorCode,
      });
      const applied = await h.prisma.activity.findFirstOrThrow({
        where: { leadId, activityLabel: labels.at(-1) },
      });
      expect(applied.data).toEqual({
        step: 0,
        provider_message_id: message.id,
        status: reported.status,
        ...(reported.errorCode ? { error_code: reported.errorCode } : {}),
      });
      expect(await h.prisma.providerHeldStatus.count({ where: { carrierId: sid } })).toBe(0);
      expect(
        await h.prisma.enrollment.findUniqueOrThrow({ where: { id: enrollmentId } }),
      ).toMatchObject({ status: play });
      // Twilio's copy of the callback, or the step's job delivered again, records nothing more.
      const again: CarrierStatus = {
        provider: 'twilio',
        carrierId: sid,
        channel: 'sms',
        ...reported,
      } as CarrierStatus;
      expect(await receiveCarrierStatus(handle.deps, again)).toEqual({ kind: 'unchanged' });
      expect((await runStep(handle.deps, { enrollment_id: enrollmentId, step: 0 })).kind).toBe(
        'skipped',
      );
      expect(await h.labels(leadId)).toEqual(labels);
    },
  );
});
