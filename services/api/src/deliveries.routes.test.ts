import { deliveryListSchema, deliverySchema } from '@leadhook/contracts';
import { createDelivery, createLeadOf } from './testing/deliveries.factory.js';
import { type Harness, playbookBody, startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isDeliveryList = bodyValidator(deliveryListSchema);
const isDelivery = bodyValidator(deliverySchema);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** An account with a playbook, a subscription of it and a lead to deliver about. */
async function setup() {
  const { api_key, account_id: accountId } = await h.newAccount();
  const api = h.as(api_key);
  const playbookId: string = (await api.post('/api/v1/playbooks').send(playbookBody())).body.id;
  const subscriptionId: string = (
    await api
      .post(`/api/v1/playbooks/${playbookId}/subscriptions`)
      .send({ url: 'https://crm.example.com/hook', events: ['*'] })
  ).body.id;
  const leadId = await createLeadOf(h.prisma, accountId, playbookId);
  return { api, accountId, playbookId, subscriptionId, leadId };
}

const at = (iso: string) => new Date(iso);

describe('GET /subscriptions/{id}/deliveries', () => {
  it('lists each delivery with its attempts, newest first, and filters by status', async () => {
    const s = await setup();
    const target = { accountId: s.accountId, leadId: s.leadId, subscriptionId: s.subscriptionId };
    const succeeded = await createDelivery(h.prisma, target, {
      status: 'succeeded',
      label: 'started',
      attempts: [{ attemptedAt: at('2026-11-22T10:00:00Z'), statusCode: 200, durationMs: 87 }],
    });
    const failed = await createDelivery(h.prisma, target, {
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
    const pending = await createDelivery(h.prisma, target, {
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

  it('paginates with limit and cursor, and shows only this subscription', async () => {
    const s = await setup();
    const other: string = (
      await s.api
        .post('/api/v1/subscriptions')
        .send({ url: 'https://x.example.com', events: ['*'] })
    ).body.id;
    const target = { accountId: s.accountId, leadId: s.leadId, subscriptionId: s.subscriptionId };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await createDelivery(h.prisma, target, { status: 'succeeded' })).deliveryId);
    }
    await createDelivery(h.prisma, { ...target, subscriptionId: other }, { status: 'failed' });
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

describe('POST /deliveries/{id}/redeliver', () => {
  it('resets a failed delivery: pending, attempt_count 0, due now, the same activity id', async () => {
    const s = await setup();
    const target = { accountId: s.accountId, leadId: s.leadId, subscriptionId: s.subscriptionId };
    const { deliveryId, activityId } = await createDelivery(h.prisma, target, {
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
      attempt_count: 0,
    });
    // The earlier tries stay in the log.
    expect(res.body.attempts).toHaveLength(1);
    const row = await h.prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row.status).toBe('pending');
    expect(row.attemptCount).toBe(0);
    expect(row.activityId).toBe(activityId);
    expect(row.nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.nextAttemptAt?.getTime()).toBeLessThanOrEqual(after);
    expect(Date.parse(res.body.next_attempt_at)).toBe(row.nextAttemptAt?.getTime());
  });

  it("answers 404 for another account's delivery, an unknown one, or one of a deleted subscription", async () => {
    const a = await setup();
    const b = await setup();
    const target = { accountId: a.accountId, leadId: a.leadId, subscriptionId: a.subscriptionId };
    const { deliveryId } = await createDelivery(h.prisma, target, { status: 'failed' });
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
    const target = { accountId: s.accountId, leadId: s.leadId, subscriptionId: s.subscriptionId };
    const since = at('2026-11-10T00:00:00Z');
    const oldFailed = await createDelivery(h.prisma, target, {
      status: 'failed',
      createdAt: at('2026-11-09T23:59:59Z'),
    });
    const newFailed = [
      await createDelivery(h.prisma, target, {
        status: 'failed',
        createdAt: since,
        attemptCount: 8,
      }),
      await createDelivery(h.prisma, target, {
        status: 'failed',
        createdAt: at('2026-11-12T00:00:00Z'),
        attemptCount: 8,
      }),
    ];
    const succeeded = await createDelivery(h.prisma, target, {
      status: 'succeeded',
      createdAt: at('2026-11-12T00:00:00Z'),
      attemptCount: 1,
    });
    const other: string = (
      await s.api
        .post('/api/v1/subscriptions')
        .send({ url: 'https://x.example.com', events: ['*'] })
    ).body.id;
    const otherFailed = await createDelivery(
      h.prisma,
      { ...target, subscriptionId: other },
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
