import { deliveryListSchema, deliverySchema } from '@leadhook/contracts';
import { createLogger, createMetrics } from '@leadhook/observability';
import { liveJob, QueueSet } from '@leadhook/queue';
import { aDelivery, closedPort, useHarness } from '@leadhook/testkit';
import request from 'supertest';
import { createApp } from './app.js';
import { PUBLIC_BASE_URL, startHarness } from './testing/harness.js';
import { createLeadOf } from './testing/leads.factory.js';
import { bodyValidator } from './validation.js';

const isDeliveryList = bodyValidator(deliveryListSchema);
const isDelivery = bodyValidator(deliverySchema);

const h = useHarness(() => startHarness());

/** An account with a playbook, a subscription of it and a lead to deliver about. */
async function setup() {
  const { api, apiKey, accountId, playbookId } = await h.owner();
  const subscriptionId: string = (
    await api
      .post(`/api/v1/playbooks/${playbookId}/subscriptions`)
      .send({ url: 'https://crm.example.com/hook', events: ['*'] })
  ).body.id;
  const leadId = await createLeadOf(h.prisma, accountId, playbookId);
  // What a delivery of this lead to this subscription is made for (aDelivery).
  const target = { accountId, leadId, subscriptionId };
  return { api, apiKey, accountId, playbookId, subscriptionId, leadId, target };
}

const at = (iso: string) => new Date(iso);

describe('GET /subscriptions/{id}/deliveries', () => {
  it('lists each delivery with its attempts, newest first, and filters by status', async () => {
    const s = await setup();
    const succeeded = await aDelivery(h.prisma, s.target, {
      status: 'succeeded',
      label: 'started',
      attempts: [{ attemptedAt: at('2026-11-22T10:00:00Z'), statusCode: 200, durationMs: 87 }],
    });
    const failed = await aDelivery(h.prisma, s.target, {
      status: 'failed',
      label: 'message_sent',
      attempts: [
        {
          attemptedAt: at('2026-11-22T11:00:00Z'),
          statusCode: 500,
          durationMs: 40,
          error: 'HTTP 500',
          responseBody: 'oops',
        },
        {
          attemptedAt: at('2026-11-22T11:00:05Z'),
          statusCode: null,
          durationMs: 15000,
          error: 'timeout after 15000 ms',
        },
      ],
    });
    const pending = await aDelivery(h.prisma, s.target, {
      status: 'pending',
      label: 'message_received',
      nextAttemptAt: at('2026-11-22T12:05:00Z'),
      attempts: [{ attemptedAt: at('2026-11-22T12:00:00Z'), statusCode: 503, durationMs: 12 }],
    });

    const res = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries`);
    expect(res.status).toBe(200);
    expect(isDeliveryList(res.body).ok).toBe(true);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([
      pending.deliveryId,
      failed.deliveryId,
      succeeded.deliveryId,
    ]);
    const [p, f, ok] = res.body.data;
    expect(p).toMatchObject({
      id: pending.deliveryId,
      subscription_id: s.subscriptionId,
      activity_id: pending.activityId,
      activity_type: 'event',
      activity_label: 'message_received',
      lead_id: s.leadId,
      status: 'pending',
      attempt_count: 1,
      next_attempt_at: '2026-11-22T12:05:00.000Z',
    });
    // The last try of a pending delivery points at the next one.
    expect(p.attempts).toEqual([
      expect.objectContaining({
        attempted_at: '2026-11-22T12:00:00.000Z',
        status_code: 503,
        next_attempt_at: '2026-11-22T12:05:00.000Z',
      }),
    ]);
    expect(f).toMatchObject({ status: 'failed', activity_label: 'message_sent', attempt_count: 2 });
    expect(f.next_attempt_at).toBeNull();
    expect(f.attempts).toEqual([
      {
        id: expect.stringMatching(/^att_/),
        attempted_at: '2026-11-22T11:00:00.000Z',
        status_code: 500,
        duration_ms: 40,
        error: 'HTTP 500',
        response_body: 'oops',
        next_attempt_at: '2026-11-22T11:00:05.000Z',
      },
      {
        id: expect.stringMatching(/^att_/),
        attempted_at: '2026-11-22T11:00:05.000Z',
        status_code: null,
        duration_ms: 15000,
        error: 'timeout after 15000 ms',
        response_body: null,
        next_attempt_at: null,
      },
    ]);
    expect(ok.attempts).toHaveLength(1);
    expect(ok.attempts[0]).toMatchObject({
      status_code: 200,
      duration_ms: 87,
      next_attempt_at: null,
    });

    for (const [status, expected] of [
      ['failed', [failed.deliveryId]],
      ['succeeded', [succeeded.deliveryId]],
      ['pending', [pending.deliveryId]],
    ] as const) {
      const filtered = await s.api.get(
        `/api/v1/subscriptions/${s.subscriptionId}/deliveries?status=${status}`,
      );
      expect(filtered.status).toBe(200);
      expect([status, filtered.body.data.map((d: { id: string }) => d.id)]).toEqual([
        status,
        expected,
      ]);
    }
    const bad = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries?status=done`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('status');
  });

  it('shows a delivery waiting behind an earlier one of the same lead as queued, naming it', async () => {
    const s = await setup();
    const past = at('2026-11-22T12:05:00Z');
    const head = await aDelivery(h.prisma, s.target, {
      status: 'pending',
      nextAttemptAt: past,
      attempts: [{ attemptedAt: at('2026-11-22T12:00:00Z'), statusCode: 503 }],
    });
    // Fanned out due at once, then left waiting for the head (as the worker leaves them).
    const second = await aDelivery(h.prisma, s.target, {
      status: 'pending',
      nextAttemptAt: past,
    });
    const third = await aDelivery(h.prisma, s.target, {
      status: 'pending',
      nextAttemptAt: past,
    });
    const otherLead = await createLeadOf(h.prisma, s.accountId, s.playbookId);
    const alone = await aDelivery(
      h.prisma,
      { ...s.target, leadId: otherLead },
      { status: 'pending', nextAttemptAt: past },
    );

    const res = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries`);
    expect(res.status).toBe(200);
    const byId = new Map(
      res.body.data.map((d: { id: string; status: string }) => [d.id, d] as const),
    );
    expect(byId.get(head.deliveryId)).toMatchObject({
      status: 'pending',
      waiting_for: null,
      next_attempt_at: past.toISOString(),
    });
    for (const queued of [second, third]) {
      expect(byId.get(queued.deliveryId)).toMatchObject({
        status: 'queued',
        waiting_for: head.deliveryId,
        next_attempt_at: null,
      });
    }
    expect(byId.get(alone.deliveryId)).toMatchObject({ status: 'pending', waiting_for: null });

    const ids = async (status: string, extra = '') =>
      (
        await s.api.get(
          `/api/v1/subscriptions/${s.subscriptionId}/deliveries?status=${status}${extra}`,
        )
      ).body.data.map((d: { id: string }) => d.id);
    expect(await ids('queued')).toEqual([third.deliveryId, second.deliveryId]);
    expect(await ids('pending')).toEqual([alone.deliveryId, head.deliveryId]);
    // Filtered pages are full pages, with a cursor.
    const page = await s.api.get(
      `/api/v1/subscriptions/${s.subscriptionId}/deliveries?status=queued&limit=1`,
    );
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([third.deliveryId]);
    expect(await ids('queued', `&limit=1&cursor=${page.body.next_cursor}`)).toEqual([
      second.deliveryId,
    ]);

    // The single read says the same.
    const one = await s.api.get(`/api/v1/deliveries/${second.deliveryId}`);
    expect(one.status).toBe(200);
    expect(isDelivery(one.body).ok).toBe(true);
    expect(one.body).toMatchObject({ status: 'queued', waiting_for: head.deliveryId });
    const headRead = await s.api.get(`/api/v1/deliveries/${head.deliveryId}`);
    expect(headRead.body).toMatchObject({ status: 'pending', attempt_count: 1 });

    // Once the head is done with, the next one is the head.
    await h.prisma.delivery.update({
      where: { id: head.deliveryId },
      data: { status: 'succeeded' },
    });
    expect((await s.api.get(`/api/v1/deliveries/${second.deliveryId}`)).body).toMatchObject({
      status: 'pending',
      waiting_for: null,
    });
    expect((await s.api.get(`/api/v1/deliveries/${third.deliveryId}`)).body).toMatchObject({
      status: 'queued',
      waiting_for: second.deliveryId,
    });
  });

  it("GET /deliveries/{id} answers 404 for another account's delivery or an unknown one", async () => {
    const a = await setup();
    const b = await setup();
    const { target } = a;
    const { deliveryId } = await aDelivery(h.prisma, target, { status: 'failed' });
    expect((await a.api.get(`/api/v1/deliveries/${deliveryId}`)).status).toBe(200);
    for (const res of [
      await b.api.get(`/api/v1/deliveries/${deliveryId}`),
      await a.api.get('/api/v1/deliveries/dlv_00000000000000000000000000'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('paginates with limit and cursor, and shows only this subscription', async () => {
    const s = await setup();
    const other: string = (
      await s.api
        .post('/api/v1/subscriptions')
        .send({ url: 'https://x.example.com', events: ['*'] })
    ).body.id;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await aDelivery(h.prisma, s.target, { status: 'succeeded' })).deliveryId);
    }
    await aDelivery(h.prisma, { ...s.target, subscriptionId: other }, { status: 'failed' });
    const first = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries?limit=2`);
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.next_cursor).toBe(ids[1]);
    const second = await s.api.get(
      `/api/v1/subscriptions/${s.subscriptionId}/deliveries?limit=2&cursor=${first.body.next_cursor}`,
    );
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(second.body.next_cursor).toBeNull();
  });
});

describe('GET /subscriptions/{id}/deliveries?from=&to=', () => {
  /** The ids the log lists for `query`, after a 200 checked against the document. */
  async function ids(s: Awaited<ReturnType<typeof setup>>, query: string): Promise<string[]> {
    const res = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries?${query}`);
    expect([query, res.status]).toEqual([query, 200]);
    expect(isDeliveryList(res.body).ok).toBe(true);
    return res.body.data.map((d: { id: string }) => d.id);
  }
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  // Ids are in creation order of the rows, not of created_at: sort as the list does.
  const listed = (...deliveries: string[]) => [...deliveries].sort().reverse();

  it('filters by the time created: days inclusive in UTC, or instants', async () => {
    const s = await setup();
    const created = async (iso: string) =>
      (await aDelivery(h.prisma, s.target, { status: 'succeeded', createdAt: at(iso) })).deliveryId;
    const before = await created('2026-02-28T23:59:59.999Z');
    const first = await created('2026-03-01T00:00:00.000Z');
    const middle = await created('2026-03-04T12:00:00.000Z');
    const last = await created('2026-03-07T23:59:59.999Z');
    const after = await created('2026-03-08T00:00:00.000Z');

    expect(await ids(s, 'from=2026-03-01&to=2026-03-07')).toEqual(listed(first, middle, last));
    expect(await ids(s, 'from=2026-03-01')).toEqual(listed(first, middle, last, after));
    expect(await ids(s, 'to=2026-03-07')).toEqual(listed(before, first, middle, last));
    // Instants are inclusive at both ends; 14:00+02:00 is 12:00Z.
    expect(
      await ids(s, q({ from: '2026-03-04T14:00:00+02:00', to: '2026-03-07T23:59:59.999Z' })),
    ).toEqual(listed(middle, last));
    expect(await ids(s, q({ from: '2026-03-04T12:00:00.001Z', to: '2026-03-08' }))).toEqual(
      listed(last, after),
    );
    expect(await ids(s, 'from=2026-03-09')).toEqual([]);
    // A period with no end given is every delivery since: years of them.
    expect(await ids(s, 'from=2020-01-01')).toHaveLength(5);
  });

  it('combines the period with the status, pending and queued included', async () => {
    const s = await setup();
    const inPeriod = at('2026-03-04T12:00:00Z');
    const earlier = at('2026-02-20T12:00:00Z');
    const later = at('2026-03-20T12:00:00Z');
    const due = at('2026-03-21T00:00:00Z');
    const failedIn = await aDelivery(h.prisma, s.target, { status: 'failed', createdAt: inPeriod });
    await aDelivery(h.prisma, s.target, { status: 'failed', createdAt: earlier });
    await aDelivery(h.prisma, s.target, { status: 'succeeded', createdAt: inPeriod });
    // A chain whose head was created before the period, two queued behind it: one
    // in the period, one after it.
    const chain = { ...s.target, leadId: await createLeadOf(h.prisma, s.accountId, s.playbookId) };
    const headBefore = await aDelivery(h.prisma, chain, {
      status: 'pending',
      nextAttemptAt: due,
      createdAt: earlier,
    });
    const queuedIn = await aDelivery(h.prisma, chain, {
      status: 'pending',
      nextAttemptAt: due,
      createdAt: inPeriod,
    });
    const queuedAfter = await aDelivery(h.prisma, chain, {
      status: 'pending',
      nextAttemptAt: due,
      createdAt: later,
    });
    // Another lead's head, created in the period.
    const other = { ...s.target, leadId: await createLeadOf(h.prisma, s.accountId, s.playbookId) };
    const headIn = await aDelivery(h.prisma, other, {
      status: 'pending',
      nextAttemptAt: due,
      createdAt: inPeriod,
    });
    const period = 'from=2026-03-01&to=2026-03-07';

    expect(await ids(s, `status=failed&${period}`)).toEqual([failedIn.deliveryId]);
    expect(await ids(s, 'status=failed')).toHaveLength(2);
    // The head of a chain is found among all its pending deliveries, whatever the
    // period: one created in the period behind a head created before it is queued.
    expect(await ids(s, `status=pending&${period}`)).toEqual([headIn.deliveryId]);
    expect(await ids(s, `status=queued&${period}`)).toEqual([queuedIn.deliveryId]);
    expect(await ids(s, 'status=pending&to=2026-02-28')).toEqual([headBefore.deliveryId]);
    expect(await ids(s, 'status=queued&from=2026-03-01')).toEqual(
      listed(queuedIn.deliveryId, queuedAfter.deliveryId),
    );
    expect(await ids(s, 'status=succeeded&from=2026-03-08')).toEqual([]);
    const read = await s.api.get(`/api/v1/deliveries/${queuedIn.deliveryId}`);
    expect(read.body).toMatchObject({ status: 'queued', waiting_for: headBefore.deliveryId });
  });

  it('pages a period with limit and cursor, filtered or not by status', async () => {
    const s = await setup();
    const inPeriod = at('2026-03-04T12:00:00Z');
    const shown: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { deliveryId } = await aDelivery(h.prisma, s.target, {
        status: 'failed',
        createdAt: inPeriod,
      });
      shown.push(deliveryId);
      // Out of the period, between them: never on a page, never cutting one short.
      await aDelivery(h.prisma, s.target, { status: 'failed', createdAt: at('2026-04-01') });
    }
    const page = async (query: string) => {
      const res = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries?${query}`);
      expect(res.status).toBe(200);
      return {
        ids: res.body.data.map((d: { id: string }) => d.id),
        next: res.body.next_cursor as string | null,
      };
    };

    for (const filter of ['', '&status=failed']) {
      const period = `from=2026-03-01&to=2026-03-31${filter}`;
      const first = await page(`${period}&limit=2`);
      expect([filter, first.ids]).toEqual([filter, [shown[2], shown[1]]]);
      expect(first.next).toBe(shown[1]);
      const second = await page(`${period}&limit=2&cursor=${first.next}`);
      expect([filter, second.ids, second.next]).toEqual([filter, [shown[0]], null]);
    }

    // Queued ones in the period: one chain, its head created before the period.
    const chain = { ...s.target, leadId: await createLeadOf(h.prisma, s.accountId, s.playbookId) };
    await aDelivery(h.prisma, chain, { status: 'pending', createdAt: at('2026-02-01') });
    const queued: string[] = [];
    for (let i = 0; i < 2; i++) {
      queued.push(
        (await aDelivery(h.prisma, chain, { status: 'pending', createdAt: inPeriod })).deliveryId,
      );
      await aDelivery(h.prisma, chain, { status: 'pending', createdAt: at('2026-04-01') });
    }
    const first = await page('status=queued&from=2026-03-01&to=2026-03-31&limit=1');
    expect(first).toEqual({ ids: [queued[1]], next: queued[1] });
    const second = await page(
      `status=queued&from=2026-03-01&to=2026-03-31&limit=1&cursor=${first.next}`,
    );
    expect(second).toEqual({ ids: [queued[0]], next: null });
  });

  it('refuses bounds that are no date, or a from after the to, with 422', async () => {
    const s = await setup();
    const refused = async (query: string, expected: [string, string][]) => {
      const res = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries?${query}`);
      expect([query, res.status]).toEqual([query, 422]);
      expect(res.body.error.code).toBe('validation_failed');
      expect(
        res.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
      ).toEqual(expected);
    };
    await refused('from=2026-03-08&to=2026-03-07', [['from', 'invalid']]);
    await refused(q({ from: '2026-03-07T12:00:00.001Z', to: '2026-03-07T12:00:00Z' }), [
      ['from', 'invalid'],
    ]);
    await refused('from=2026-02-30', [['from', 'invalid']]);
    await refused('to=2026-13-01', [['to', 'invalid']]);
    await refused('from=yesterday', [['from', 'invalid']]);
    await refused('from=2026-02-30&to=2026-02-31', [
      ['from', 'invalid'],
      ['to', 'invalid'],
    ]);
    // A bound equal to the other is a period of one instant, or one day.
    expect(await ids(s, q({ from: '2026-03-07T12:00:00Z', to: '2026-03-07T12:00:00Z' }))).toEqual(
      [],
    );
    expect(await ids(s, 'from=2026-03-07&to=2026-03-07')).toEqual([]);
    // Another account's subscription: the period does not make it found.
    const other = await setup();
    const res = await s.api.get(
      `/api/v1/subscriptions/${other.subscriptionId}/deliveries?from=2026-03-01`,
    );
    expect(res.status).toBe(404);
  });
});

describe('POST /deliveries/{id}/redeliver', () => {
  it('resets a failed delivery: pending, the schedule again, due now, the same activity id, enqueued', async () => {
    const s = await setup();
    const { deliveryId, activityId } = await aDelivery(h.prisma, s.target, {
      status: 'failed',
      attemptCount: 8,
      attempts: [{ attemptedAt: at('2026-11-20T00:00:00Z'), statusCode: 500 }],
    });
    const before = Date.now();
    const res = await s.api.post(`/api/v1/deliveries/${deliveryId}/redeliver`);
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(isDelivery(res.body).ok).toBe(true);
    expect(res.body).toMatchObject({
      id: deliveryId,
      activity_id: activityId,
      status: 'pending',
      waiting_for: null,
      // The earlier try stays listed and counted.
      attempt_count: 1,
    });
    expect(res.body.attempts).toEqual([
      expect.objectContaining({ attempted_at: '2026-11-20T00:00:00.000Z', status_code: 500 }),
    ]);
    const row = await h.prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row.status).toBe('pending');
    // The row's attempt_count is its place in the retry schedule: the first entry again.
    expect(row.attemptCount).toBe(0);
    expect(row.activityId).toBe(activityId);
    // Handed to the webhook worker by the call itself, under the key it uses.
    const job = await liveJob(h.queues.get('delivery'), 'delivery', {
      delivery_id: deliveryId,
      attempt: 0,
    });
    expect(job?.data).toEqual({ delivery_id: deliveryId, attempt: 0 });
    expect(await job?.getState()).toBe('waiting');
    expect(row.nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.nextAttemptAt?.getTime()).toBeLessThanOrEqual(after);
    expect(Date.parse(res.body.next_attempt_at)).toBe(row.nextAttemptAt?.getTime());
  });

  it('still resets the row when Redis is away (the webhook worker reconciler sends it)', async () => {
    const s = await setup();
    const { deliveryId } = await aDelivery(h.prisma, s.target, { status: 'failed' });
    const noRedis = new QueueSet({
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      prefix: 'test-api-no-redis',
    });
    try {
      const app = createApp({
        prisma: h.prisma,
        pool: h.pool,
        logger: createLogger({ service: 'api-test', level: 'silent' }),
        metrics: createMetrics('api-test'),
        queues: noRedis,
        options: { publicBaseUrl: PUBLIC_BASE_URL },
      });
      const res = await request(app)
        .post(`/api/v1/deliveries/${deliveryId}/redeliver`)
        .set('authorization', `Bearer ${s.apiKey}`);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
      const row = await h.prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } });
      expect([row.status, row.attemptCount]).toEqual(['pending', 0]);
    } finally {
      await noRedis.close();
    }
  });

  it("answers 404 for another account's delivery, an unknown one, or one of a deleted subscription", async () => {
    const a = await setup();
    const b = await setup();
    const { target } = a;
    const { deliveryId } = await aDelivery(h.prisma, target, { status: 'failed' });
    for (const res of [
      await b.api.post(`/api/v1/deliveries/${deliveryId}/redeliver`),
      await a.api.post('/api/v1/deliveries/dlv_00000000000000000000000000/redeliver'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await h.prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe(
      'failed',
    );
    expect((await a.api.delete(`/api/v1/subscriptions/${a.subscriptionId}`)).status).toBe(204);
    expect((await a.api.post(`/api/v1/deliveries/${deliveryId}/redeliver`)).status).toBe(404);
  });
});

describe('POST /subscriptions/{id}/recover', () => {
  it('resets only the failed deliveries created since the date, and counts them', async () => {
    const s = await setup();
    const since = at('2026-11-10T00:00:00Z');
    const oldFailed = await aDelivery(h.prisma, s.target, {
      status: 'failed',
      createdAt: at('2026-11-09T23:59:59Z'),
    });
    const newFailed = [
      await aDelivery(h.prisma, s.target, {
        status: 'failed',
        createdAt: since,
        attemptCount: 8,
      }),
      await aDelivery(h.prisma, s.target, {
        status: 'failed',
        createdAt: at('2026-11-12T00:00:00Z'),
        attemptCount: 8,
      }),
    ];
    const succeeded = await aDelivery(h.prisma, s.target, {
      status: 'succeeded',
      createdAt: at('2026-11-12T00:00:00Z'),
      attemptCount: 1,
    });
    const other: string = (
      await s.api
        .post('/api/v1/subscriptions')
        .send({ url: 'https://x.example.com', events: ['*'] })
    ).body.id;
    const otherFailed = await aDelivery(
      h.prisma,
      { ...s.target, subscriptionId: other },
      { status: 'failed', createdAt: at('2026-11-12T00:00:00Z') },
    );

    const res = await s.api
      .post(`/api/v1/subscriptions/${s.subscriptionId}/recover`)
      .send({ since: since.toISOString() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ recovered: 2 });

    const statusOf = async (id: string) =>
      (await h.prisma.delivery.findUniqueOrThrow({ where: { id } })).status;
    for (const d of newFailed) {
      const row = await h.prisma.delivery.findUniqueOrThrow({ where: { id: d.deliveryId } });
      expect([row.status, row.attemptCount, row.nextAttemptAt]).toEqual([
        'pending',
        0,
        expect.any(Date),
      ]);
    }
    // One chain (one lead): its head, the earlier of the two, is enqueued; the
    // other follows it (queued), as the webhook worker sends a lead's deliveries.
    const [head, behind] = newFailed;
    const queue = h.queues.get('delivery');
    expect(
      (await liveJob(queue, 'delivery', { delivery_id: head?.deliveryId ?? '', attempt: 0 }))?.data,
    ).toEqual({
      delivery_id: head?.deliveryId,
      attempt: 0,
    });
    expect(
      await liveJob(queue, 'delivery', { delivery_id: behind?.deliveryId ?? '', attempt: 0 }),
    ).toBeUndefined();
    const log = await s.api.get(`/api/v1/subscriptions/${s.subscriptionId}/deliveries`);
    const shown = (id: string | undefined) =>
      log.body.data.find((d: { id: string }) => d.id === id);
    expect(shown(head?.deliveryId)).toMatchObject({ status: 'pending', waiting_for: null });
    expect(shown(behind?.deliveryId)).toMatchObject({
      status: 'queued',
      waiting_for: head?.deliveryId,
      next_attempt_at: null,
    });
    expect(await statusOf(oldFailed.deliveryId)).toBe('failed');
    expect(await statusOf(succeeded.deliveryId)).toBe('succeeded');
    expect(await statusOf(otherFailed.deliveryId)).toBe('failed');

    const again = await s.api
      .post(`/api/v1/subscriptions/${s.subscriptionId}/recover`)
      .send({ since: since.toISOString() });
    expect(again.body).toEqual({ recovered: 0 });
  });

  it('requires since as a date-time', async () => {
    const s = await setup();
    for (const body of [{}, { since: 'yesterday' }, { since: '2026-11-10' }]) {
      const res = await s.api.post(`/api/v1/subscriptions/${s.subscriptionId}/recover`).send(body);
      expect([body, res.status]).toEqual([body, 422]);
      expect(res.body.error.details[0].field).toBe('since');
    }
  });
});
