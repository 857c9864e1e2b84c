import type { MessagingProvider } from '@leadhook/providers';
import { useHarness, waitFor } from '@leadhook/testkit';
import { drainTimeoutMs } from '@leadhook/worker-runtime';
import { Harness } from './testing/harness.js';

// SIGTERM (docs/operations.md, "Starting and stopping"): a worker stops within SHUTDOWN_TIMEOUT_MS, after which
// its own timer exits 1 (runProcess). A step stuck in the provider must
// not hold the stop past that bound: the component gives up waiting at the
// drain deadline and leaves the job to BullMQ's stalled-job check. Its own file:
// the step it leaves behind must not run under another test's worker.

const h = useHarness(() => Harness.create());

it('stops within SHUTDOWN_TIMEOUT_MS while a step waits on a provider that does not answer', async () => {
  let called = false;
  let answer = () => {};
  const stuck: MessagingProvider = {
    name: 'stuck',
    sendSms: () => {
      called = true;
      return new Promise((resolve) => {
        answer = () => resolve({ status: 'delivered', providerMessageId: 'msg_late' });
      });
    },
    placeCall: () => Promise.reject(new Error('no call in this playbook')),
  };
  const shutdownTimeoutMs = 1500;
  const { runtime } = await h.startWorker(
    { SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs) },
    { provider: () => stuck },
  );
  const source = await h.playbook([{ type: 'sms', delay_seconds: 0, template: 'Hi' }]);
  const { leadId } = await h.lead(source);
  await runtime.queues.enqueue('enrollment', { lead_id: leadId });
  await waitFor(async () => called);

  const started = Date.now();
  try {
    const stopped = await Promise.race([
      runtime.stop().then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 2 * shutdownTimeoutMs)),
    ]);
    const elapsed = Date.now() - started;
    expect(stopped).toBe(true);
    // It waited for the step until the drain deadline, then stopped inside the bound.
    expect(elapsed).toBeGreaterThanOrEqual(drainTimeoutMs(shutdownTimeoutMs) - 50);
    expect(elapsed).toBeLessThan(shutdownTimeoutMs);
  } finally {
    // The process's exit would end the abandoned step and its connection; here
    // the provider answers, so the step ends and gives its connection back.
    answer();
  }
});
