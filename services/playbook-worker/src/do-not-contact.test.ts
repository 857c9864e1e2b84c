import { newId } from '@leadhook/db';
import { receiveInbound } from '@leadhook/providers';
import { anEnrollment, aPhone, useHarness, waitFor } from '@leadhook/testkit';
import { enrollLead } from './enrollment.job.js';
import type { PlaybookDeps } from './playbook.deps.js';
import { runStep } from './step/step.runner.js';
import { Harness } from './testing/harness.js';

// docs/api.md, "Do-not-contact": a STOP is honoured for every lead of the account.
const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

const SMS_THEN_CALL = [
  { type: 'sms' as const, delay_seconds: 0, template: 'Hi' },
  { type: 'call' as const, delay_seconds: 3600 },
];

async function worker(): Promise<PlaybookDeps> {
  // Long reconcile interval: only the direct calls below run steps.
  return (await h.startWorker({}, { reconcileIntervalMs: 600_000 })).handle.deps;
}

/** An active play of a lead with `phone` at step 0, due now, with no job in Redis. */
async function duePlay(phone: string) {
  const source = await h.playbook(SMS_THEN_CALL);
  const { leadId } = await h.lead(source, { phone });
  const enrollmentId = await anEnrollment(
    h.prisma,
    { leadId, playbookId: source.playbookId },
    { nextRunAt: new Date(Date.now() - 10) },
  );
  return { leadId, enrollmentId };
}

/** Lead A with `phone` replies STOP through the provider's inbound hook. */
async function stopFrom(deps: PlaybookDeps, phone: string): Promise<string> {
  const a = await h.lead(await h.playbook(SMS_THEN_CALL), { phone });
  const result = await receiveInbound(deps, { leadId: a.leadId, body: 'Stop!' });
  expect(result.kind).toBe('recorded');
  return a.leadId;
}

async function sends(leadId: string): Promise<number> {
  return h.prisma.providerMessage.count({ where: { leadId } });
}

async function outboxOf(leadId: string, label: string): Promise<number> {
  const activity = await h.prisma.activity.findFirstOrThrow({
    where: { leadId, activityLabel: label },
  });
  return h.prisma.outbox.count({
    where: { topic: 'activity', payload: { equals: { activity_id: activity.id } } },
  });
}

describe('do-not-contact', () => {
  it('a STOP on lead A puts the phone on the list in the transaction that records opted_out', async () => {
    const deps = await worker();
    const phone = aPhone();
    const a = await stopFrom(deps, phone);
    expect(await h.labels(a)).toEqual(['message_received', 'stopped', 'opted_out']);
    const reply = await h.prisma.activity.findFirstOrThrow({
      where: { leadId: a, activityLabel: 'message_received' },
    });
    const entry = await h.prisma.suppression.findUniqueOrThrow({
      where: { accountId_phone: { accountId: h.accountId, phone } },
    });
    expect(entry).toMatchObject({ reason: 'opted_out', leadId: a, activityId: reply.id });
    // Adding the phone again keeps the first entry.
    const again = await stopFrom(deps, phone);
    expect(await h.labels(again)).toEqual(['message_received', 'stopped', 'opted_out']);
    expect(
      await h.prisma.suppression.findUniqueOrThrow({
        where: { accountId_phone: { accountId: h.accountId, phone } },
      }),
    ).toEqual(entry);
  });

  it('lead B with a phone that replied STOP on lead A (another source) is never contacted and ends do_not_contact', async () => {
    const deps = await worker();
    const phone = aPhone();
    await stopFrom(deps, phone);
    const b = await h.lead(await h.playbook(SMS_THEN_CALL), { phone });
    expect(await enrollLead(deps, b.leadId)).toEqual({
      kind: 'not_enrollable',
      reason: 'do_not_contact',
    });
    expect(await h.labels(b.leadId)).toEqual(['do_not_contact']);
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: b.leadId } })).toMatchObject({
      outcome: 'do_not_contact',
    });
    expect(await h.prisma.enrollment.count({ where: { leadId: b.leadId } })).toBe(0);
    expect(await h.openEnrollmentOutboxRows(b.leadId)).toBe(0);
    // Through the activity path: an outbox row takes it to webhook subscribers.
    expect(await outboxOf(b.leadId, 'do_not_contact')).toBe(1);
    expect(await sends(b.leadId)).toBe(0);
    // Enrolling again changes nothing.
    expect((await enrollLead(deps, b.leadId)).kind).toBe('not_enrollable');
    expect(await h.labels(b.leadId)).toEqual(['do_not_contact']);
  });

  it('a phone suppressed after enrollment: the due step does not run and the lead ends do_not_contact', async () => {
    const deps = await worker();
    const phone = aPhone();
    const b = await duePlay(phone);
    await stopFrom(deps, phone);
    expect(await runStep(deps, { enrollment_id: b.enrollmentId, step: 0 })).toEqual({
      kind: 'skipped',
      reason: 'do_not_contact',
    });
    expect(await sends(b.leadId)).toBe(0);
    expect(await h.labels(b.leadId)).toEqual(['stopped', 'do_not_contact']);
    expect(await outboxOf(b.leadId, 'do_not_contact')).toBe(1);
    expect(
      await h.prisma.enrollment.findUniqueOrThrow({ where: { id: b.enrollmentId } }),
    ).toMatchObject({ status: 'stopped', currentStep: 0, nextRunAt: null });
    // The job delivered again finds the play stopped.
    expect((await runStep(deps, { enrollment_id: b.enrollmentId, step: 0 })).kind).toBe('skipped');
    expect(await sends(b.leadId)).toBe(0);
  });

  it('a STOP on lead A racing a due step of lead B (same phone): no send commits after the STOP commits', async () => {
    const stopper = await worker();
    const stepper = await worker();
    let ran = 0;
    let suppressed = 0;
    for (let i = 0; i < 50; i++) {
      const phone = aPhone();
      const a = await h.lead(await h.playbook(SMS_THEN_CALL), { phone });
      const b = await duePlay(phone);
      // Read as soon as the STOP's COMMIT has returned: every send committed before it.
      const stop = receiveInbound(stopper, { leadId: a.leadId, body: 'STOP' }).then(() =>
        sends(b.leadId),
      );
      const [sentBeforeStop, step] = await Promise.all([
        stop,
        runStep(stepper, { enrollment_id: b.enrollmentId, step: 0 }),
      ]);
      expect(await sends(b.leadId)).toBe(sentBeforeStop);
      if (step.kind === 'ran') {
        ran += 1;
        expect(sentBeforeStop).toBe(1);
        // The next step (the call) is claimed after the STOP: it does not run.
        await h.prisma.enrollment.update({
          where: { id: b.enrollmentId },
          data: { nextRunAt: new Date(Date.now() - 10) },
        });
        expect(await runStep(stepper, { enrollment_id: b.enrollmentId, step: 1 })).toEqual({
          kind: 'skipped',
          reason: 'do_not_contact',
        });
        expect(await sends(b.leadId)).toBe(1);
      } else {
        suppressed += 1;
        expect(step).toEqual({ kind: 'skipped', reason: 'do_not_contact' });
        expect(sentBeforeStop).toBe(0);
      }
      expect((await h.labels(b.leadId)).at(-1)).toBe('do_not_contact');
    }
    expect(ran + suppressed).toBe(50);
    // Fifty races of two workers each: 30 s was too little on a busy machine.
  }, 120_000);

  it('a list of 10,000 imported phones, then leads for 100 of them: none is contacted, each ends do_not_contact', async () => {
    // The rows POST /suppressions/import stores, written here in one statement;
    // the endpoint itself is tested in the api's suppressions.routes.test.ts.
    // 415-666 numbers: aPhone() draws 415-555 ones, so the control leads are not listed.
    const listed = Array.from(
      { length: 10_000 },
      (_, i) => `+1415666${String(i).padStart(4, '0')}`,
    );
    const importId = newId('suppressionImport');
    expect(
      await h.prisma.$executeRaw`
        INSERT INTO suppressions (account_id, phone, reason, import_id)
        SELECT ${h.accountId}, p, 'imported', ${importId} FROM unnest(${listed}::text[]) AS p`,
    ).toBe(10_000);
    const { runtime } = await h.startWorker();
    const source = await h.playbook(SMS_THEN_CALL);
    const suppressed: string[] = [];
    for (let i = 0; i < 100; i++) {
      suppressed.push((await h.lead(source, { phone: listed[i * 100 + 37] })).leadId);
    }
    const controls: string[] = [];
    for (let i = 0; i < 3; i++) controls.push((await h.lead(source)).leadId);
    // As intake does after commit: the fast-path enqueue (the outbox relay is the fallback).
    for (const leadId of [...suppressed, ...controls]) {
      await runtime.queues.enqueue('enrollment', { lead_id: leadId });
    }

    const settled = async () =>
      (await h.prisma.lead.count({
        where: { id: { in: suppressed }, outcome: 'do_not_contact' },
      })) === suppressed.length &&
      (await h.prisma.providerMessage.count({ where: { leadId: { in: controls } } })) >=
        controls.length;
    await waitFor(settled, 60_000);

    expect(await h.prisma.providerMessage.count({ where: { leadId: { in: suppressed } } })).toBe(0);
    expect(await h.prisma.enrollment.count({ where: { leadId: { in: suppressed } } })).toBe(0);
    for (const leadId of suppressed) {
      expect(await h.labels(leadId)).toEqual(['do_not_contact']);
    }
    for (const leadId of controls) {
      expect(await sends(leadId)).toBeGreaterThanOrEqual(1);
      expect(await h.labels(leadId)).not.toContain('do_not_contact');
    }
  }, 120_000);
});
