import { useHarness, waitFor } from '@leadhook/testkit';
import request from 'supertest';
import { Harness, type RunningWorker } from './testing/harness.js';

// The operator's view of the webhook worker (docs/operations.md, "Metrics"): the series
// its /metrics serves, scraped from the worker as createWorker wires it.

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

async function record(w: RunningWorker, leadId: string): Promise<void> {
  const result = await w.recorder.record({ leadId, type: 'event', label: 'started' });
  if (result.kind !== 'recorded') throw new Error(`not recorded: ${result.kind}`);
}

async function disabledBy(subscriptionId: string): Promise<void> {
  await waitFor(async () => {
    const row = await h.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
    return !row.enabled;
  });
}

/**
 * Two subscriptions disabled through the real delivery path: one by a 410, one
 * by a `failStatus` answer after five days of failures.
 */
async function disableOneEachWay(w: RunningWorker, failStatus: number) {
  const gone = await h.subscriber((_req, res) => {
    res.writeHead(410).end();
  });
  const goneSub = await h.subscription({ url: gone.url });
  await record(w, await h.lead());
  await disabledBy(goneSub.id);

  const failing = await h.subscriber((_req, res) => {
    res.writeHead(failStatus).end();
  });
  const { playbookId, sourceId } = await h.playbook();
  const failingSub = await h.subscription({ url: failing.url, playbookId });
  await h.prisma.subscription.update({
    where: { id: failingSub.id },
    data: { failingSince: new Date(Date.now() - 5 * 86_400_000 - 60_000) },
  });
  await record(w, await h.lead({ playbookId, sourceId }));
  await disabledBy(failingSub.id);
  return { goneUrl: gone.url, goneSub, failingSub };
}

function series(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('webhook worker /metrics', () => {
  it('counts the subscriptions disabled now, by reason, at scrape', async () => {
    const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
    const metrics = () => request(`http://127.0.0.1:${w.port}`).get('/metrics').expect(200);
    const before = (await metrics()).text;
    for (const reason of ['manual', 'gone', 'failing', 'other']) {
      expect(series(before, 'leadhook_webhook_subscriptions_disabled', `reason="${reason}"`)).toBe(
        0,
      );
    }

    // A 410 (gone), and five days of failures (failing), through the real delivery path.
    const { goneUrl } = await disableOneEachWay(w, 500);

    // Turned off by the account (the API records reason "manual"); and a deleted one, not counted.
    await h
      .subscription({ url: goneUrl, enabled: false })
      .then(({ id }) =>
        h.prisma.subscription.update({ where: { id }, data: { disabledReason: 'manual' } }),
      );
    await h.subscription({ url: goneUrl, enabled: false }).then(({ id }) =>
      h.prisma.subscription.update({
        where: { id },
        data: { disabledReason: 'manual', deletedAt: new Date() },
      }),
    );

    const after = (await metrics()).text;
    expect(series(after, 'leadhook_webhook_subscriptions_disabled', 'reason="gone"')).toBe(1);
    expect(series(after, 'leadhook_webhook_subscriptions_disabled', 'reason="failing"')).toBe(1);
    expect(series(after, 'leadhook_webhook_subscriptions_disabled', 'reason="manual"')).toBe(1);
    expect(series(after, 'leadhook_webhook_subscriptions_disabled', 'reason="other"')).toBe(0);
    // The runtime's series are there too.
    expect(after).toMatch(/^leadhook_queue_jobs\{queue="delivery",state="failed"/m);
    expect(after).toMatch(/^leadhook_retention_removed_total\{kind="idempotency_keys"/m);
  });

  it('counts by the code the worker records, whatever the sentence the account reads says', async () => {
    const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
    const scrape = async (reason: string) => {
      const { text } = await request(`http://127.0.0.1:${w.port}`).get('/metrics').expect(200);
      return series(text, 'leadhook_webhook_subscriptions_disabled', `reason="${reason}"`) ?? NaN;
    };
    const before = { gone: await scrape('gone'), failing: await scrape('failing') };

    const { goneSub, failingSub } = await disableOneEachWay(w, 503);

    const rows = await h.prisma.subscription.findMany({
      where: { id: { in: [goneSub.id, failingSub.id] } },
      orderBy: { disabledCode: 'asc' },
    });
    expect(rows.map((r) => [r.id, r.disabledCode])).toEqual([
      [failingSub.id, 'failing'],
      [goneSub.id, 'gone'],
    ]);
    // The sentences are the account's to read and may be reworded: the count holds.
    await h.prisma.subscription.updateMany({
      where: { id: { in: [goneSub.id, failingSub.id] } },
      data: { disabledReason: 'Disabled by the webhook worker.' },
    });
    expect(await scrape('gone')).toBe(before.gone + 1);
    expect(await scrape('failing')).toBe(before.failing + 1);
  });
});
