import { receiveInbound } from '@leadhook/providers';
import { jobsOf } from '@leadhook/queue';
import { SMS_SMS_CALL_UNANSWERED, TEST_REDIS_URL, useHarness, waitFor } from '@leadhook/testkit';
import { Queue } from 'bullmq';
import { runStep } from './step/step.runner.js';
import { Harness } from './testing/harness.js';

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

describe('a lead from enrollment to its outcome', () => {
  it('runs every step in order and ends completed, then unreachable', async () => {
    const { handle, runtime } = await h.startWorker();
    const source = await h.playbook([
      {
        type: 'sms',
        delay_seconds: 0,
        template: 'Hi {{first_name}} ({{external_id}}){{nickname}}',
      },
      { type: 'sms', delay_seconds: 1, template: 'Still there, {{first_name}}?' },
      { type: 'call', delay_seconds: 0 },
    ]);
    const { leadId, phone } = await h.lead(source);
    // As intake does after commit: the fast-path enqueue.
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });

    await waitFor(async () => (await h.labels(leadId)).includes('unreachable'));
    expect(await h.labels(leadId)).toEqual(SMS_SMS_CALL_UNANSWERED);
    const enrollment = await h.prisma.enrollment.findUniqueOrThrow({ where: { leadId } });
    expect(enrollment).toMatchObject({ status: 'completed', currentStep: 3, nextRunAt: null });
    expect(await h.openEnrollmentOutboxRows(leadId)).toBe(0);

    const messages = await h.prisma.providerMessage.findMany({
      where: { leadId },
      orderBy: { step: 'asc' },
    });
    expect(messages.map((m) => [m.step, m.channel, m.status, m.to])).toEqual([
      [0, 'sms', 'delivered', phone],
      [1, 'sms', 'delivered', phone],
      [2, 'call', 'voicemail', phone],
    ]);
    expect(messages[0]?.body).toBe('Hi Ana (ext-7) Reply STOP to opt out.');
    expect(messages[1]?.body).toBe('Still there, Ana?');
    // The second SMS waited its 1 s after the first step (whose provider record is
    // written a little after the step's clock read, hence not the full second).
    const gap = (messages[1]?.createdAt.getTime() ?? 0) - (messages[0]?.createdAt.getTime() ?? 0);
    expect(gap).toBeGreaterThanOrEqual(500);

    const delivered = await h.prisma.activity.findFirstOrThrow({
      where: { leadId, activityLabel: 'message_delivered' },
      orderBy: { id: 'asc' },
    });
    expect(delivered.enrollmentId).toBe(enrollment.id);
    expect(delivered.data).toMatchObject({ step: 0, provider_message_id: messages[0]?.id });

    const metrics = await runtime.metrics.registry.metrics();
    expect(metrics).toMatch(
      /leadhook_playbook_steps_total\{type="sms",result="delivered"[^}]*\} 2/,
    );
    expect(metrics).toMatch(/leadhook_playbook_step_lag_seconds_count\{[^}]*\} 3/);
    expect(handle.deps.provider.name).toBe('simulation');
  });

  it('ends an undeliverable number with the outcome undeliverable, and runs no later step', async () => {
    const { runtime, handle } = await h.startWorker({
      PROVIDER_SIMULATION_SMS_OUTCOME: 'undeliverable',
    });
    const source = await h.playbook([
      { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}' },
      { type: 'call', delay_seconds: 0 },
    ]);
    const { leadId } = await h.lead(source);
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });

    await waitFor(async () => (await h.labels(leadId)).includes('undeliverable'));
    expect(await h.labels(leadId)).toEqual(['started', 'stopped', 'undeliverable']);
    const enrollment = await h.prisma.enrollment.findUniqueOrThrow({ where: { leadId } });
    expect(enrollment.status).toBe('stopped');
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).toMatchObject({
      outcome: 'undeliverable',
    });
    // The call step is not scheduled; delivered anyway (a stale job), it finds the play stopped.
    expect(await runStep(handle.deps, { enrollment_id: enrollment.id, step: 1 })).toEqual({
      kind: 'skipped',
      reason: 'not_active',
    });
    expect(await h.prisma.providerMessage.count({ where: { leadId } })).toBe(1);
  });

  it('a STOP reply through the inbound hook between steps stops the play; the next step does not run', async () => {
    const { runtime, handle } = await h.startWorker();
    const source = await h.playbook([
      { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}' },
      { type: 'sms', delay_seconds: 2, template: 'Second' },
    ]);
    const { leadId, phone } = await h.lead(source);
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });
    await waitFor(async () => (await h.labels(leadId)).includes('message_delivered'));

    const inbound = await receiveInbound(handle.deps, { phone, body: '  Stop ' });
    expect(inbound).toMatchObject({ kind: 'recorded', leadId });

    const enrollment = await h.prisma.enrollment.findUniqueOrThrow({ where: { leadId } });
    expect(enrollment.status).toBe('stopped');
    // Wait for the already scheduled second step to fire and find the play stopped.
    const queue = new Queue('playbook-step', {
      connection: { url: TEST_REDIS_URL },
      prefix: h.prefix,
    });
    try {
      await waitFor(
        async () =>
          (
            await jobsOf(queue, 'playbook-step', { enrollment_id: enrollment.id, step: 1 }, [
              'completed',
            ])
          ).length > 0,
      );
    } finally {
      await queue.close();
    }
    expect(await h.labels(leadId)).toEqual([
      'started',
      'first_message_sent',
      'message_delivered',
      'message_received',
      'stopped',
      'opted_out',
    ]);
    expect(await h.prisma.providerMessage.count({ where: { leadId } })).toBe(1);
    expect(await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } })).toMatchObject({
      optedOut: true,
      outcome: 'opted_out',
    });
  });

  it('a playbook with no steps enrolls (started) and leaves the play active with nothing due', async () => {
    const { runtime } = await h.startWorker();
    const source = await h.playbook([]);
    const { leadId } = await h.lead(source);
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });
    const enrollment = await waitFor(() => h.prisma.enrollment.findUnique({ where: { leadId } }));
    expect(enrollment).toMatchObject({ status: 'active', currentStep: 0, nextRunAt: null });
    expect(await h.labels(leadId)).toEqual(['started']);
    expect(await h.openEnrollmentOutboxRows(leadId)).toBe(0);
  });
});
