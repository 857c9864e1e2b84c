import { createPool, newId } from '@leadhook/db';
import { useHarness, waitFor } from '@leadhook/testkit';
import { StepBacklogGate } from './admission.js';
import { Harness } from './testing/harness.js';

const h = useHarness(() => Harness.create(), {
  afterEach: async (h) => {
    await h.stopWorkers();
    // Each test starts with no play due: park every play far in the future.
    await h.prisma.enrollment.updateMany({
      where: { status: 'active' },
      data: { nextRunAt: new Date(Date.now() + 86_400_000) },
    });
  },
});

/** An active play at step 0 due at `dueAt`, with no job in Redis. */
async function play(dueAt: Date, status = 'active'): Promise<string> {
  const source = await h.playbook([{ type: 'sms', delay_seconds: 0, template: 'Hi' }]);
  const { leadId } = await h.lead(source);
  const id = newId('enrollment');
  await h.prisma.enrollment.create({
    data: { id, leadId, playbookId: source.playbookId, status, currentStep: 0, nextRunAt: dueAt },
  });
  return id;
}

describe('the step backlog gate', () => {
  it('counts the active plays that are due, and how late the oldest is', async () => {
    const now = new Date();
    const gate = new StepBacklogGate(h.pool, () => now, {
      maxDueSteps: 2,
      maxLagMs: 5_000,
      lookbackMs: 60_000,
    });
    expect(await gate.backlog()).toEqual({ due: 0, lagMs: 0 });
    expect(await gate.full()).toBe(false);

    await play(new Date(now.getTime() - 1_000));
    await play(new Date(now.getTime() + 10_000)); // not due yet
    await play(new Date(now.getTime() - 2_000), 'stopped'); // not active
    await play(new Date(now.getTime() - 120_000)); // older than the lookback
    expect(await gate.backlog()).toEqual({ due: 1, lagMs: 1_000 });
    expect(await gate.full()).toBe(false);

    // Too many due…
    await play(new Date(now.getTime() - 500));
    await play(new Date(now.getTime() - 200));
    expect(await gate.backlog()).toEqual({ due: 3, lagMs: 1_000 });
    expect(await gate.full()).toBe(true);
  });

  it('is full when the oldest due step is later than maxLagMs, however few', async () => {
    const now = new Date();
    const gate = new StepBacklogGate(h.pool, () => now, { maxDueSteps: 100, maxLagMs: 250 });
    await play(new Date(now.getTime() - 100));
    expect(await gate.full()).toBe(false);
    const late = await play(new Date(now.getTime() - 400));
    expect(await gate.full()).toBe(true);

    // waitForRoom holds until the late step has run (here: moved on by hand).
    let released = false;
    const waiting = gate.waitForRoom().then((ms) => {
      released = true;
      return ms;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(released).toBe(false);
    await h.prisma.enrollment.update({
      where: { id: late },
      data: { currentStep: 1, nextRunAt: null, status: 'completed' },
    });
    expect(await waiting).toBeGreaterThanOrEqual(200);
  });

  it('lets a stopping process go at once', async () => {
    const now = new Date();
    const gate = new StepBacklogGate(h.pool, () => now, { maxDueSteps: 0, pollMs: 60_000 });
    await play(new Date(now.getTime() - 1_000));
    const abort = new AbortController();
    const waiting = gate.waitForRoom(abort.signal);
    await new Promise((r) => setTimeout(r, 100));
    abort.abort();
    await expect(waiting).resolves.toBeGreaterThanOrEqual(0);
  });
});

describe('admission control in the worker', () => {
  it('holds an accepted lead while a step is late, and enrolls it once the step has run', async () => {
    // The reconciler is off: the late play below stays late until the test moves it.
    const { runtime } = await h.startWorker(
      {},
      { reconcileIntervalMs: 600_000, admission: { maxLagMs: 250, pollMs: 20 } },
    );
    const late = await play(new Date(Date.now() - 5_000));

    const source = await h.playbook([{ type: 'call', delay_seconds: 3600 }]);
    const { leadId } = await h.lead(source);
    await runtime.queues.enqueue('enrollment', { lead_id: leadId });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await h.prisma.enrollment.count({ where: { leadId } })).toBe(0);
    expect(await h.openEnrollmentOutboxRows(leadId)).toBe(1);

    // The late step runs (its job arrives): the backlog is gone, the lead is enrolled.
    await runtime.queues.enqueue('playbook-step', { enrollment_id: late, step: 0 });
    await waitFor(async () => (await h.labels(leadId)).includes('started'));
    expect(await h.prisma.enrollment.findUniqueOrThrow({ where: { id: late } })).toMatchObject({
      status: 'completed',
    });
    expect(await h.openEnrollmentOutboxRows(leadId)).toBe(0);
  });
});

describe('the step backlog gate when PostgreSQL does not answer', () => {
  it('lets the lead through and reports the error, rather than holding it forever', async () => {
    const broken = createPool({ databaseUrl: h.db.url, max: 1 });
    await broken.end();
    const errors: unknown[] = [];
    const gate = new StepBacklogGate(
      broken,
      () => new Date(),
      {},
      (err) => errors.push(err),
    );
    await expect(gate.waitForRoom()).resolves.toBeGreaterThanOrEqual(0);
    expect(errors).toHaveLength(1);
  });
});
