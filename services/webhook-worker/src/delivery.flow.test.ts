import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { webhookPayloadSchema } from '@leadhook/contracts';
import { jobsOf } from '@leadhook/queue';
import { type Subscriber, useHarness, waitFor } from '@leadhook/testkit';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import request from 'supertest';
import { CHAIN_RUN_LIMIT } from './delivery/chain.runner.js';
import { fanOut } from './fanout.job.js';
import { Harness, type RunningWorker } from './testing/harness.js';

const addFormats = addFormatsModule.default;
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv, ['date-time']);
const validatePayload = ajv.compile(webhookPayloadSchema);

/** Standard Webhooks verification, written from the specification (not the project's signer). */
function verified(secret: string, req: Subscriber['received'][number]): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const content = `${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.body}`;
  const expected = createHmac('sha256', key).update(content).digest();
  return String(req.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const [version, sig] = entry.split(',');
      const given = Buffer.from(sig ?? '', 'base64');
      return (
        version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
      );
    });
}

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

async function record(
  w: RunningWorker,
  leadId: string,
  label: string,
  type: 'event' | 'outcome' = 'event',
): Promise<string> {
  const result = await w.recorder.record({ leadId, type, label });
  if (result.kind !== 'recorded') throw new Error(`not recorded: ${result.kind}`);
  const last = result.activities.at(-1);
  if (!last) throw new Error('no activity');
  return last.id;
}

const deliveryOf = (activityId: string, subscriptionId: string) =>
  h.prisma.delivery.findUnique({
    where: { activityId_subscriptionId: { activityId, subscriptionId } },
    include: { attempts: { orderBy: { attemptedAt: 'asc' } } },
  });

describe('fan-out and the payload', () => {
  it('delivers the documented payload, signed, and records the attempt', async () => {
    const w = await h.startWorker();
    const sub = await h.subscriber();
    const { id: subscriptionId, secret } = await h.subscription({ url: `${sub.url}?k=1` });
    const leadId = await h.lead();
    const enrollment = await h.prisma.enrollment.create({
      data: { id: `play_${leadId.slice(5)}`, leadId, playbookId: h.playbookId },
    });
    const activityId = await record(w, leadId, 'started');
    const req = await waitFor(() => sub.received[0]);

    expect(req.headers['webhook-id']).toBe(activityId);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/^leadhook\/\S+ \(\+webhooks\)$/);
    expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(verified(secret, req)).toBe(true);

    const body: unknown = JSON.parse(req.body);
    expect(validatePayload(body)).toBe(true);
    expect(validatePayload.errors ?? null).toBeNull();
    const activity = await h.prisma.activity.findUniqueOrThrow({ where: { id: activityId } });
    const lead = await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    expect(body).toEqual({
      id: activityId,
      activity_type: 'event',
      activity_label: 'started',
      occurred_at: activity.occurredAt.toISOString(),
      lead_originators: [
        { origin: 'leadhook', key: leadId },
        { origin: 'Acme Leads', key: 'ext-7' },
      ],
      lead_id: leadId,
      marketing_source: { id: h.sourceId, name: 'Acme Leads' },
      playbook: { id: h.playbookId, name: 'Auto leads' },
      data: {},
      activity_play_id: enrollment.id,
      activity_note: activity.note,
      activity_created_at: activity.occurredAt.toISOString(),
      lead_first_name: 'Ana',
      lead_last_name: 'Ruiz',
      lead_email: 'ana@example.com',
      lead_opted_out: false,
      lead_created_at: lead.createdAt.toISOString(),
      lead_additional_info: { campaign: 'spring', utm_source: 'fb' },
    });

    const delivery = await waitFor(async () => {
      const d = await deliveryOf(activityId, subscriptionId);
      return d?.status === 'succeeded' && d;
    });
    expect(delivery.attemptCount).toBe(1);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({
      statusCode: 200,
      error: null,
      responseBody: 'ok',
    });
    // The consumer closed the outbox row in the fan-out's transaction.
    expect(
      await h.prisma.outbox.count({
        where: {
          topic: 'activity',
          payload: { equals: { activity_id: activityId } },
          doneAt: null,
        },
      }),
    ).toBe(0);
    const metrics = await request(`http://127.0.0.1:${w.port}`).get('/metrics');
    expect(metrics.text).toMatch(
      /leadhook_webhook_deliveries_total\{result="succeeded",service="webhook-worker"\} 1/,
    );
    expect(metrics.text).toMatch(
      /leadhook_webhook_attempt_duration_seconds_count\{[^}]*outcome="success"[^}]*\} 1$/m,
    );
  });

  it('leaves lead_originators at leadhook alone without an external_id, and play id null', async () => {
    const w = await h.startWorker();
    const sub = await h.subscriber();
    await h.subscription({ url: sub.url });
    const leadId = await h.lead({ externalId: null });
    await record(w, leadId, 'interested');
    const req = await waitFor(() => sub.received[0]);
    const body: unknown = JSON.parse(req.body);
    expect(validatePayload(body)).toBe(true);
    expect(body).toMatchObject({
      lead_originators: [{ origin: 'leadhook', key: leadId }],
      activity_play_id: null,
    });
  });

  it('selects by label, "*", kind, playbook and account; skips disabled; twice creates nothing new', async () => {
    const w = await h.startWorker();
    const sub = await h.subscriber();
    const other = await h.playbook();
    const subs = {
      started: await h.subscription({ url: sub.url, events: ['started'] }),
      all: await h.subscription({ url: sub.url, events: ['*'] }),
      outcomesOnly: await h.subscription({ url: sub.url, events: [], outcomes: ['*'] }),
      qualified: await h.subscription({ url: sub.url, events: [], outcomes: ['qualified'] }),
      accountWide: await h.subscription({ url: sub.url, events: ['started'], playbookId: null }),
      otherPlaybook: await h.subscription({
        url: sub.url,
        events: ['*'],
        playbookId: other.playbookId,
      }),
      disabled: await h.subscription({ url: sub.url, events: ['*'], enabled: false }),
    };
    const leadId = await h.lead();
    // An active play: the outcome then stops it, and `stopped` (an event) comes first.
    await h.prisma.enrollment.create({
      data: { id: `play_${leadId.slice(5)}`, leadId, playbookId: h.playbookId },
    });
    const started = await record(w, leadId, 'started');
    const interested = await record(w, leadId, 'interested');
    const qualified = await record(w, leadId, 'qualified', 'outcome');
    const stopped = (
      await h.prisma.activity.findFirstOrThrow({ where: { leadId, activityLabel: 'stopped' } })
    ).id;
    const pairs = async () =>
      (
        await h.prisma.delivery.findMany({
          where: { leadId },
          select: { activityId: true, subscriptionId: true },
        })
      )
        .map((d) => `${d.activityId}>${d.subscriptionId}`)
        .sort();
    const expected = [
      [started, subs.started],
      [started, subs.all],
      [started, subs.accountWide],
      [interested, subs.all],
      [stopped, subs.all],
      [qualified, subs.outcomesOnly],
      [qualified, subs.qualified],
    ]
      .map(([a, s]) => `${a}>${typeof s === 'string' ? s : s?.id}`)
      .sort();
    await waitFor(async () => (await pairs()).length === expected.length);
    expect(await pairs()).toEqual(expected);
    const ids = await h.prisma.delivery.findMany({
      where: { leadId },
      select: { id: true },
      orderBy: { id: 'asc' },
    });

    // A fan-out that runs again (a relayed or duplicated job) creates nothing new.
    for (const a of [started, interested, stopped, qualified]) {
      expect(await fanOut(w.handle.deps, a)).toEqual({ kind: 'already_done' });
    }
    await h.prisma.outbox.updateMany({
      where: { topic: 'activity', payload: { equals: { activity_id: started } } },
      data: { doneAt: null },
    });
    expect(await fanOut(w.handle.deps, started)).toMatchObject({
      kind: 'fanned_out',
      deliveries: 0,
    });
    expect(
      await h.prisma.delivery.findMany({
        where: { leadId },
        select: { id: true },
        orderBy: { id: 'asc' },
      }),
    ).toEqual(ids);
    await waitFor(async () => sub.received.length >= expected.length);
    expect(await pairs()).toEqual(expected);
  });
});

describe('heads sent by their fan-out', () => {
  /** The state of the delivery job of a head's first attempt ('unknown': none). */
  const jobState = async (w: RunningWorker, deliveryId: string) => {
    const queue = w.queues.get('delivery');
    const [job] = await jobsOf(queue, 'delivery', { delivery_id: deliveryId, attempt: 0 });
    return job ? await job.getState() : 'unknown';
  };

  /** One `started` activity to one subscriber, delivered: the worker, what it got, the row. */
  async function deliverOne(sendSlots?: number) {
    const w = await h.startWorker({}, sendSlots === undefined ? {} : { sendSlots });
    const sub = await h.subscriber();
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const activityId = await record(w, await h.lead(), 'started');
    await waitFor(
      async () => (await deliveryOf(activityId, subscriptionId))?.status === 'succeeded',
    );
    const delivery = await deliveryOf(activityId, subscriptionId);
    expect(delivery?.attempts).toHaveLength(1);
    expect(sub.received.map((r) => r.headers['webhook-id'])).toEqual([activityId]);
    return { w, state: await jobState(w, delivery?.id ?? '') };
  }

  it('a due head is claimed by its fan-out and sent from there: no delivery job', async () => {
    const { w, state } = await deliverOne();
    expect(state).toBe('unknown');
    expect(w.handle.deps.slots?.inUse).toBe(0);
  });

  it('with no free slot the head goes through the delivery queue, as before', async () => {
    const { state } = await deliverOne(0);
    expect(state).toBe('completed');
  });

  it('a fan-out sends at most its free slots itself and enqueues the other heads', async () => {
    const w = await h.startWorker({}, { sendSlots: 1 });
    const sub = await h.subscriber();
    const subs = [
      await h.subscription({ url: `${sub.url}?s=1` }),
      await h.subscription({ url: `${sub.url}?s=2` }),
      await h.subscription({ url: `${sub.url}?s=3` }),
    ];
    const leadId = await h.lead();
    const activityId = await record(w, leadId, 'started');
    const rows = async () => Promise.all(subs.map(({ id }) => deliveryOf(activityId, id)));
    await waitFor(async () => (await rows()).every((d) => d?.status === 'succeeded'));
    const states = await Promise.all((await rows()).map((d) => jobState(w, d?.id ?? '')));
    expect(states.filter((s) => s === 'unknown')).toHaveLength(1);
    expect(states.filter((s) => s === 'completed')).toHaveLength(2);
    expect(sub.received).toHaveLength(3);
  });
});

/**
 * A subscriber that holds every request until `release()`, then answers `body`
 * (`pauseMs` later).
 */
async function heldSubscriber(body: string, pauseMs = 0) {
  let released = false;
  const subscriber = await h.subscriber(async (_req, res) => {
    await waitFor(() => released, 30_000);
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    res.end(body);
  });
  return {
    subscriber,
    release: () => {
      released = true;
    },
  };
}

describe('ordering', () => {
  it('a slow subscriber gets a lead\u2019s activities in order, one at a time, without delaying another', async () => {
    const w = await h.startWorker({}, { concurrency: 8 });
    const { subscriber: slow, release } = await heldSubscriber('slow ok', 50);
    const fast = await h.subscriber();
    await h.subscription({ url: slow.url, events: ['*'] });
    await h.subscription({ url: fast.url, events: ['*'] });
    const leadA = await h.lead();
    const leadB = await h.lead();
    const labels = [
      'started',
      'first_message_sent',
      'message_delivered',
      'message_sent',
      'call_attempted',
      'voicemail_left',
    ];
    const expectedA: string[] = [];
    const expectedB: string[] = [];
    for (const label of labels) {
      expectedA.push(await record(w, leadA, label));
      expectedB.push(await record(w, leadB, label));
    }
    const ofLead = (s: Subscriber, lead: string) =>
      s.received
        .filter((r) => JSON.parse(r.body).lead_id === lead)
        .map((r) => String(r.headers['webhook-id']));

    // The fast subscriber gets everything while the slow one holds its first requests.
    await waitFor(() => fast.received.length === 2 * labels.length);
    expect(ofLead(fast, leadA)).toEqual(expectedA);
    expect(ofLead(fast, leadB)).toEqual(expectedB);
    expect(slow.received.length).toBe(2); // one in flight per (subscription, lead)

    release();
    await waitFor(() => slow.received.length === 2 * labels.length, 20_000);
    expect(ofLead(slow, leadA)).toEqual(expectedA);
    expect(ofLead(slow, leadB)).toEqual(expectedB);
    expect(slow.maxInFlight).toBe(2);
  });
});

describe('a backlog', () => {
  it('goes out in order, one at a time, each once, across jobs past the per-job limit', async () => {
    const w = await h.startWorker({}, { concurrency: 4 });
    const { subscriber: sub, release } = await heldSubscriber('ok');
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const leadId = await h.lead();
    const expected: string[] = [];
    for (let i = 0; i < CHAIN_RUN_LIMIT + 5; i++)
      expected.push(await record(w, leadId, 'message_sent'));
    // The first request is held while the rest of the chain piles up behind it.
    await waitFor(
      async () =>
        (await h.prisma.delivery.count({ where: { subscriptionId, queued: true } })) ===
        expected.length - 1,
    );
    expect(sub.received).toHaveLength(1);
    release();
    await waitFor(() => sub.received.length === expected.length, 20_000);
    expect(sub.ids()).toEqual(expected);
    expect(sub.maxInFlight).toBe(1);
    // The last answer reaches the subscriber before the worker records it: wait for that.
    const deliveries = await waitFor(async () => {
      const rows = await h.prisma.delivery.findMany({
        where: { subscriptionId },
        include: { attempts: true },
      });
      return rows.every((d) => d.status !== 'pending') ? rows : undefined;
    });
    expect(deliveries.every((d) => d.status === 'succeeded' && d.attempts.length === 1)).toBe(true);
    expect(deliveries.every((d) => !d.queued && d.claimedUntil === null)).toBe(true);
  });
});

describe('retries', () => {
  it('retries on the schedule with the same webhook-id, then fails and moves the chain on', async () => {
    const w = await h.startWorker(
      { WEBHOOK_RETRY_SCHEDULE: '0,100ms,200ms' },
      { random: () => 0.5 },
    );
    const sub = await h.subscriber((req, res) => {
      const first = JSON.parse(req.body).activity_label === 'started';
      res.writeHead(first ? 500 : 200).end(first ? 'boom' : 'ok');
    });
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const leadId = await h.lead();
    const failing = await record(w, leadId, 'started');
    const next = await record(w, leadId, 'interested');
    const failed = await waitFor(async () => {
      const d = await deliveryOf(failing, subscriptionId);
      return d?.status === 'failed' && d;
    });
    expect(failed.attemptCount).toBe(3);
    expect(failed.attempts.map((a) => [a.statusCode, a.error, a.responseBody])).toEqual([
      [500, 'unexpected status 500', 'boom'],
      [500, 'unexpected status 500', 'boom'],
      [500, 'unexpected status 500', 'boom'],
    ]);
    const [a1, a2, a3] = failed.attempts.map((a) => a.attemptedAt.getTime());
    expect((a2 ?? 0) - (a1 ?? 0)).toBeGreaterThanOrEqual(100);
    expect((a3 ?? 0) - (a2 ?? 0)).toBeGreaterThanOrEqual(200);
    await waitFor(async () => (await deliveryOf(next, subscriptionId))?.status === 'succeeded');
    expect(sub.ids()).toEqual([failing, failing, failing, next]);
    const subscription = await h.prisma.subscription.findUniqueOrThrow({
      where: { id: subscriptionId },
    });
    expect(subscription.failingSince).toBeNull(); // cleared by the 2xx
  });

  it('waits at least Retry-After on a 429', async () => {
    const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
    let calls = 0;
    const sub = await h.subscriber((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.end('ok');
    });
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const activityId = await record(w, await h.lead(), 'started');
    const done = await waitFor(async () => {
      const d = await deliveryOf(activityId, subscriptionId);
      return d?.status === 'succeeded' && d;
    });
    const [first, second] = done.attempts;
    expect(first?.statusCode).toBe(429);
    expect(
      (second?.attemptedAt.getTime() ?? 0) - (first?.attemptedAt.getTime() ?? 0),
    ).toBeGreaterThanOrEqual(1000);
  });

  it('a 410 disables the subscription and fails its pending deliveries', async () => {
    const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
    // The subscriber answers 410 when the test says so: once b's delivery waits
    // behind a's (a fan-out after the disable rightly makes no delivery at all).
    let answer: (() => void) | undefined;
    const sub = await h.subscriber((_req, res) => {
      answer = () => res.writeHead(410).end();
    });
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const leadId = await h.lead();
    const a = await record(w, leadId, 'started');
    const b = await record(w, leadId, 'interested');
    await waitFor(
      async () => answer !== undefined && (await deliveryOf(b, subscriptionId)) !== null,
    );
    answer?.();
    const disabled = await waitFor(async () => {
      const s = await h.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
      return !s.enabled && s;
    });
    expect(disabled.disabledReason).toMatch(/410/);
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    // An ordinary subscription is only disabled (a REST hook would be deleted).
    expect(disabled.deletedAt).toBeNull();
    await waitFor(async () => (await deliveryOf(b, subscriptionId))?.status === 'failed');
    expect((await deliveryOf(a, subscriptionId))?.status).toBe('failed');
    expect(sub.received).toHaveLength(1);
    const metrics = await request(`http://127.0.0.1:${w.port}`).get('/metrics');
    expect(metrics.text).toMatch(
      /leadhook_webhook_subscriptions_disabled_total\{reason="gone",service="webhook-worker"\} 1/,
    );
  });

  it('a 410 deletes a REST hook (created via POST /hooks): its deliveries fail, none is retried, none is made after', async () => {
    const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms' });
    let answer: (() => void) | undefined;
    const sub = await h.subscriber((_req, res) => {
      answer = () => res.writeHead(410).end();
    });
    const { id: hookId } = await h.subscription({ url: sub.url });
    await h.prisma.subscription.update({ where: { id: hookId }, data: { createdVia: 'hooks' } });
    const leadId = await h.lead();
    const a = await record(w, leadId, 'started');
    const b = await record(w, leadId, 'interested');
    await waitFor(async () => answer !== undefined && (await deliveryOf(b, hookId)) !== null);
    answer?.();
    const gone = await waitFor(async () => {
      const s = await h.prisma.subscription.findUniqueOrThrow({ where: { id: hookId } });
      return s.deletedAt !== null && s;
    });
    expect(gone).toMatchObject({ enabled: false, disabledCode: 'gone' });
    expect(gone.disabledReason).toMatch(/410/);
    await waitFor(async () => (await deliveryOf(b, hookId))?.status === 'failed');
    const first = await deliveryOf(a, hookId);
    expect(first?.status).toBe('failed');
    expect(first?.attempts.map((t) => t.statusCode)).toEqual([410]);
    expect((await deliveryOf(b, hookId))?.attempts).toEqual([]);
    // A later activity of the lead makes no delivery for the deleted hook: once
    // its fan-out closed its outbox row, there is none.
    const c = await record(w, leadId, 'completed');
    await waitFor(
      async () =>
        (await h.prisma.outbox.count({
          where: { topic: 'activity', payload: { equals: { activity_id: c } }, doneAt: null },
        })) === 0,
    );
    expect(await deliveryOf(c, hookId)).toBeNull();
    expect(sub.received).toHaveLength(1);
    // A hook's delivery is any delivery: the documented body (GET /hooks/samples
    // is checked against the same closed schema in services/api).
    expect(validatePayload(JSON.parse(sub.received[0]?.body ?? '{}'))).toBe(true);
  });

  it('disables a subscription failing for 5 days', async () => {
    const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms' });
    const sub = await h.subscriber((_req, res) => {
      res.writeHead(500).end();
    });
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    await h.prisma.subscription.update({
      where: { id: subscriptionId },
      data: { failingSince: new Date(Date.now() - 5 * 86400_000 - 60_000) },
    });
    const activityId = await record(w, await h.lead(), 'started');
    const s = await waitFor(async () => {
      const row = await h.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
      return !row.enabled && row;
    });
    expect(s.disabledReason).toMatch(/5 days/);
    expect((await deliveryOf(activityId, subscriptionId))?.attempts).toHaveLength(1);
  });

  it.each([
    [
      'a 3xx',
      (res: ServerResponse) => {
        res.writeHead(301, { location: '/x' }).end();
      },
      301,
      /redirect/,
    ],
    ['a timeout', (_res: ServerResponse) => {}, null, /^timeout after 300 ms$/],
  ])('%s is a failed attempt', async (_name, answer, status, error) => {
    const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0', WEBHOOK_TIMEOUT_MS: '300' });
    const sub = await h.subscriber((_req, res) => answer(res));
    const { id: subscriptionId } = await h.subscription({ url: sub.url });
    const activityId = await record(w, await h.lead(), 'started');
    const d = await waitFor(async () => {
      const row = await deliveryOf(activityId, subscriptionId);
      return row?.status === 'failed' && row;
    });
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]?.statusCode).toBe(status);
    expect(d.attempts[0]?.error).toMatch(error);
  });
});

describe('the SSRF guard in the worker', () => {
  it('refuses private targets unless allowed, by literal and by resolved name', async () => {
    const w = await h.startWorker(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_RETRY_SCHEDULE: '0' },
      { resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
    );
    const sub = await h.subscriber();
    const literal = await h.subscription({ url: sub.url });
    const named = await h.subscription({ url: `http://hooks.example.test:${sub.port}/hook` });
    const activityId = await record(w, await h.lead(), 'started');
    for (const [s, host] of [
      [literal, '127.0.0.1'],
      [named, 'hooks.example.test'],
    ] as const) {
      const d = await waitFor(async () => {
        const row = await deliveryOf(activityId, s.id);
        return row?.status === 'failed' && row;
      });
      expect(d.attempts[0]?.error).toBe(`refused: ${host} resolves to a private address`);
    }
    expect(sub.received).toHaveLength(0);
  });
});
