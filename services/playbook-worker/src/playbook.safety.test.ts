import { newId } from '@leadhook/db';
import { jobsOf, liveJob } from '@leadhook/queue';
import { anEnrollment, jobsFailed, TEST_REDIS_URL, useHarness, waitFor } from '@leadhook/testkit';
import { Queue } from 'bullmq';
import { enrollLead } from './enrollment.job.js';
import { runStep } from './step/step.runner.js';
import { Harness } from './testing/harness.js';

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

/** An active play at step 0, due now, with no job in Redis. */
async function duePlay(source: { playbookId: string; sourceId: string }) {
  const { leadId } = await h.lead(source);
  const enrollmentId = await anEnrollment(
    h.prisma,
    { leadId, playbookId: source.playbookId },
    { nextRunAt: new Date(Date.now() - 10) },
  );
  return { leadId, enrollmentId };
}

describe('a step runs once per lead', () => {
  it('concurrent runs of one step from two processes send one message and record one sent activity', async () => {
    // Long reconcile interval: only the direct calls below run the step.
    const a = await h.startWorker({}, { reconcileIntervalMs: 600_000 });
    const b = await h.startWorker({}, { reconcileIntervalMs: 600_000 });
    const source = await h.playbook([{ type: 'sms', delay_seconds: 0, template: 'Hi' }]);
    const { leadId, enrollmentId } = await duePlay(source);

    const payload = { enrollment_id: enrollmentId, step: 0 };
    const results = await Promise.all(
      [a, b, a, b, a, b, a, b].map((w) => runStep(w.handle.deps, payload)),
    );
    expect(results.filter((r) => r.kind === 'ran')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'skipped')).toHaveLength(7);
    expect(await h.prisma.providerMessage.count({ where: { leadId } })).toBe(1);
    expect(await h.labels(leadId)).toEqual([
      'first_message_sent',
      'message_delivered',
      'completed',
      'unreachable',
    ]);
  });

  it('two Worker processes and the same step enqueued twice (and redelivered under another id): one message', async () => {
    const a = await h.startWorker({}, { reconcileIntervalMs: 600_000 });
    await h.startWorker({}, { reconcileIntervalMs: 600_000 });
    const source = await h.playbook([
      { type: 'sms', delay_seconds: 0, template: 'Hi' },
      { type: 'call', delay_seconds: 3600 },
    ]);
    const { leadId, enrollmentId } = await duePlay(source);
    await a.runtime.queues.enqueue('playbook-step', { enrollment_id: enrollmentId, step: 0 });
    await a.runtime.queues.enqueue('playbook-step', { enrollment_id: enrollmentId, step: 0 });
    // A delivery Redis's id would not dedupe (e.g. re-added after Redis forgot the first).
    const queue = new Queue('playbook-step', {
      connection: { url: TEST_REDIS_URL },
      prefix: h.prefix,
    });
    try {
      for (let i = 0; i < 3; i++) {
        await queue.add(
          'playbook-step',
          { enrollment_id: enrollmentId, step: 0 },
          { jobId: `dup-${enrollmentId}-${i}` },
        );
      }
      const step0 = { enrollment_id: enrollmentId, step: 0 };
      await waitFor(async () => {
        const states = await Promise.all(
          [0, 1, 2].map((i) => queue.getJobState(`dup-${enrollmentId}-${i}`)),
        );
        const enqueued = await jobsOf(queue, 'playbook-step', step0);
        return (
          enqueued.length > 0 &&
          [...states, ...(await Promise.all(enqueued.map((job) => job.getState())))].every(
            (s) => s === 'completed',
          )
        );
      });
      // The next step is scheduled (an hour away) under its own key.
      const step1 = await liveJob(queue, 'playbook-step', { enrollment_id: enrollmentId, step: 1 });
      expect(await step1?.getState()).toBe('delayed');
    } finally {
      await queue.close();
    }
    expect(await h.prisma.providerMessage.count({ where: { leadId } })).toBe(1);
    expect(await h.labels(leadId)).toEqual(['first_message_sent', 'message_delivered']);
    expect(
      await h.prisma.enrollment.findUniqueOrThrow({ where: { id: enrollmentId } }),
    ).toMatchObject({
      status: 'active',
      currentStep: 1,
    });
  });
});

describe('the reconciler', () => {
  it('runs a step whose job Redis forgot', async () => {
    const { runtime } = await h.startWorker({}, { reconcileIntervalMs: 200 });
    const source = await h.playbook([{ type: 'sms', delay_seconds: 2, template: 'Hi' }]);
    const { leadId } = await h.lead(source);
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });
    const enrollment = await waitFor(() => h.prisma.enrollment.findUnique({ where: { leadId } }));
    const queue = new Queue('playbook-step', {
      connection: { url: TEST_REDIS_URL },
      prefix: h.prefix,
    });
    const step0 = { enrollment_id: enrollment.id, step: 0 };
    try {
      await waitFor(
        async () =>
          (await (await liveJob(queue, 'playbook-step', step0))?.getState()) === 'delayed',
      );
      // Redis restarts with nothing on disk: every key of the step queue is gone.
      // (Its state is not checked here: the reconciler, every 200 ms, may already
      // have put it back, which is the point.)
      expect(await h.forgetRedis('playbook-step')).toBeGreaterThan(0);
    } finally {
      await queue.close();
    }
    await waitFor(async () => (await h.labels(leadId)).includes('unreachable'), 20_000);
    expect(await h.labels(leadId)).toEqual([
      'started',
      'first_message_sent',
      'message_delivered',
      'completed',
      'unreachable',
    ]);
    expect(await h.prisma.providerMessage.count({ where: { leadId } })).toBe(1);
  });
});

describe('the contact window', () => {
  // 02:00 in San Francisco (PST, UTC-8) on a Monday: outside 08:00-21:00.
  const night = new Date('2026-11-23T10:00:00.000Z');

  /** A worker open 08:00-21:00 on the clock `now`, and a lead enrolled there whose first SMS is deferred. */
  async function deferredLead(now: () => Date) {
    const { runtime, handle } = await h.startWorker(
      { CONTACT_HOURS: '08:00-21:00' },
      { now, reconcileIntervalMs: 200 },
    );
    const source = await h.playbook([{ type: 'sms', delay_seconds: 0, template: 'Hi' }]);
    const { leadId } = await h.lead(source);
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });
    await waitFor(async () => (await h.labels(leadId)).includes('contact_deferred'));
    return { handle, leadId };
  }

  it('defers a step outside the window: contact_deferred with data.until, the step waits', async () => {
    const { handle, leadId } = await deferredLead(() => night);
    const deferred = await h.prisma.activity.findFirstOrThrow({
      where: { leadId, activityLabel: 'contact_deferred' },
    });
    expect(deferred.data).toMatchObject({ step: 0, until: '2026-11-23T16:00:00.000Z' });
    const enrollment = await h.prisma.enrollment.findUniqueOrThrow({ where: { leadId } });
    expect(enrollment).toMatchObject({ status: 'active', currentStep: 0 });
    expect(enrollment.nextRunAt?.toISOString()).toBe('2026-11-23T16:00:00.000Z');

    // Looking again (a redelivered job, reconciler rounds) records no second deferral.
    expect(await runStep(handle.deps, { enrollment_id: enrollment.id, step: 0 })).toEqual({
      kind: 'not_due',
      dueAt: new Date('2026-11-23T16:00:00.000Z'),
    });
    await handle.reconcileNow();
    expect(await h.labels(leadId)).toEqual(['started', 'contact_deferred']);
    expect(await h.prisma.providerMessage.count({ where: { leadId } })).toBe(0);
  });

  it('runs the step once the window opens', async () => {
    let now = night;
    const { handle, leadId } = await deferredLead(() => now);
    const enrollment = await h.prisma.enrollment.findUniqueOrThrow({ where: { leadId } });

    now = new Date('2026-11-23T16:00:00.500Z');
    const result = await runStep(handle.deps, { enrollment_id: enrollment.id, step: 0 });
    expect(result).toMatchObject({ kind: 'ran', type: 'sms', status: 'delivered' });
    expect(await h.labels(leadId)).toEqual([
      'started',
      'contact_deferred',
      'first_message_sent',
      'message_delivered',
      'completed',
      'unreachable',
    ]);
  });
});

describe('enrollment', () => {
  it('enrolling the same lead twice is a no-op that still closes the outbox row', async () => {
    const { handle } = await h.startWorker({}, { reconcileIntervalMs: 600_000 });
    const source = await h.playbook([{ type: 'call', delay_seconds: 3600 }]);
    const { leadId } = await h.lead(source);

    const [first, second] = await Promise.all([
      enrollLead(handle.deps, leadId),
      enrollLead(handle.deps, leadId),
    ]);
    const kinds = [first?.kind, second?.kind].sort();
    expect(kinds).toEqual(['already_enrolled', 'enrolled']);
    // The relay re-sends a row; the consumer finds the effect and closes the row.
    await h.prisma.outbox.create({ data: { topic: 'enrollment', payload: { lead_id: leadId } } });
    expect(await h.openEnrollmentOutboxRows(leadId)).toBe(1);
    expect((await enrollLead(handle.deps, leadId)).kind).toBe('already_enrolled');
    expect(await h.openEnrollmentOutboxRows(leadId)).toBe(0);
    expect(await h.prisma.enrollment.count({ where: { leadId } })).toBe(1);
    expect(await h.labels(leadId)).toEqual(['started']);
  });

  it('closes the rows of a lead made days ago, and of a lead that is gone', async () => {
    // The outbox is partitioned by day (docs/operations.md, "Outbox partitions"):
    // the lead's row is looked for from the lead's day on, written as intake writes
    // it, in the lead's transaction; a lead that is gone has its rows looked for in
    // every day.
    const source = await h.playbook([{ type: 'call', delay_seconds: 3600 }]);
    const { leadId } = await h.lead(source);
    await h.pool.query(`UPDATE leads SET created_at = now() - interval '3 days' WHERE id = $1`, [
      leadId,
    ]);
    await h.pool.query(
      `UPDATE outbox SET created_at = now() - interval '3 days' WHERE payload->>'lead_id' = $1`,
      [leadId],
    );
    const gone = newId('lead');
    await h.pool.query(
      `INSERT INTO outbox (topic, payload, created_at)
       VALUES ('enrollment', jsonb_build_object('lead_id', $1::text), now() - interval '5 days')`,
      [gone],
    );
    const enroll = async (lead: string) =>
      (
        await h.pool.query<{ r_kind: string }>(
          `SELECT r_kind FROM playbook_enroll($1, $2, now(), 'started', $3::text[])`,
          [lead, newId('enrollment'), [newId('activity')]],
        )
      ).rows[0]?.r_kind;
    expect(await enroll(leadId)).toBe('enrolled');
    expect(await enroll(gone)).toBe('lead_not_found');
    expect(await h.openEnrollmentOutboxRows(leadId)).toBe(0);
    expect(await h.openEnrollmentOutboxRows(gone)).toBe(0);
  });

  it('does not enroll a lead that already has an outcome or opted out, and closes its row', async () => {
    const { handle } = await h.startWorker({}, { reconcileIntervalMs: 600_000 });
    const source = await h.playbook([{ type: 'sms', delay_seconds: 0, template: 'Hi' }]);
    const withOutcome = await h.lead(source, { outcome: 'qualified' });
    const optedOut = await h.lead(source, { optedOut: true });
    expect(await enrollLead(handle.deps, withOutcome.leadId)).toEqual({
      kind: 'not_enrollable',
      reason: 'outcome',
    });
    expect(await enrollLead(handle.deps, optedOut.leadId)).toEqual({
      kind: 'not_enrollable',
      reason: 'opted_out',
    });
    for (const { leadId } of [withOutcome, optedOut]) {
      expect(await h.openEnrollmentOutboxRows(leadId)).toBe(0);
      expect(await h.prisma.enrollment.count({ where: { leadId } })).toBe(0);
      expect(await h.labels(leadId)).toEqual([]);
    }
  });

  it('the outbox relay enrolls a lead whose fast-path enqueue never happened', async () => {
    await h.startWorker();
    const source = await h.playbook([]);
    const { leadId } = await h.lead(source);
    await h.prisma.outbox.updateMany({
      where: { topic: 'enrollment', payload: { equals: { lead_id: leadId } } },
      data: { nextRelayAt: new Date(Date.now() - 1000) },
    });
    await waitFor(async () => (await h.labels(leadId)).includes('started'));
    await waitFor(async () => (await h.openEnrollmentOutboxRows(leadId)) === 0);
    expect(await h.prisma.enrollment.count({ where: { leadId } })).toBe(1);
  });
});

describe('a job whose payload is malformed', () => {
  it('fails at its first attempt, for good, and the worker goes on with valid jobs', async () => {
    const { runtime } = await h.startWorker();
    const failed = await jobsFailed(h.prefix, [
      { topic: 'enrollment', data: { lead_id: 42 } },
      { topic: 'playbook-step', data: { enrollment_id: 'enr_x', step: 'one' } },
    ]);
    for (const job of failed) {
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toMatch(/^invalid (enrollment|playbook-step) job payload/);
    }
    const source = await h.playbook([{ type: 'sms', delay_seconds: 3600, template: 'Hi' }]);
    const { leadId } = await h.lead(source);
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });
    await waitFor(() => h.prisma.enrollment.findUnique({ where: { leadId } }));
  });
});
