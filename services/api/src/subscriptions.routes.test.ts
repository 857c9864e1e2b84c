import {
  errorEnvelopeSchema,
  subscriptionListSchema,
  subscriptionSchema,
  subscriptionWithSecretSchema,
} from '@leadhook/contracts';
import { useHarness } from '@leadhook/testkit';
import { type AuthedAgent, startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isSubscription = bodyValidator(subscriptionSchema);
const isSubscriptionWithSecret = bodyValidator(subscriptionWithSecretSchema);
const isSubscriptionList = bodyValidator(subscriptionListSchema);
const isError = bodyValidator(errorEnvelopeSchema);

const HOOK = 'https://crm.example.com/hooks/leadhook';
const DAY_MS = 24 * 60 * 60 * 1000;

const h = useHarness(() => startHarness());

const owner = () => h.owner();

function subscriptionBody(overrides: Record<string, unknown> = {}) {
  return {
    url: HOOK,
    events: ['first_message_sent', 'message_received'],
    outcomes: ['*'],
    ...overrides,
  };
}

/** Creates a subscription of the owner's playbook through the API: subscriptionBody with `overrides`. */
function subscribe(
  { api, playbookId }: { api: AuthedAgent; playbookId: string },
  overrides: Record<string, unknown> = {},
) {
  return api
    .post(`/api/v1/playbooks/${playbookId}/subscriptions`)
    .send(subscriptionBody(overrides));
}

describe('playbook subscriptions CRUD', () => {
  it('creates (201, with its secret), reads, lists, updates and soft-deletes (204, then 404)', async () => {
    const { api, playbookId } = await owner();
    const created = await subscribe({ api, playbookId });
    expect(created.status).toBe(201);
    expect(isSubscriptionWithSecret(created.body).ok).toBe(true);
    expect(created.body).toMatchObject({
      playbook_id: playbookId,
      url: HOOK,
      events: ['first_message_sent', 'message_received'],
      outcomes: ['*'],
      enabled: true,
      disabled_reason: null,
      disabled_code: null,
      disabled_at: null,
      previous_secret_expires_at: null,
    });
    expect(created.body.id).toMatch(/^sub_[0-9a-z]{26}$/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
    const id: string = created.body.id;
    const row = await h.prisma.subscription.findUniqueOrThrow({ where: { id } });
    expect(row.secret).toBe(created.body.secret);

    const { secret: _secret, ...withoutSecret } = created.body;
    const read = await api.get(`/api/v1/subscriptions/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(withoutSecret);

    const list = await api.get(`/api/v1/playbooks/${playbookId}/subscriptions`);
    expect(list.status).toBe(200);
    expect(isSubscriptionList(list.body).ok).toBe(true);
    expect(list.body).toEqual({ data: [withoutSecret], next_cursor: null });

    const updated = await api
      .patch(`/api/v1/subscriptions/${id}`)
      .send({ url: 'https://crm.example.com/v2', events: [], outcomes: ['qualified'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      url: 'https://crm.example.com/v2',
      events: [],
      outcomes: ['qualified'],
    });
    const partial = await api.patch(`/api/v1/subscriptions/${id}`).send({ events: ['*'] });
    expect(partial.body).toMatchObject({ events: ['*'], outcomes: ['qualified'] });

    const deleted = await api.delete(`/api/v1/subscriptions/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const res of [
      await api.get(`/api/v1/subscriptions/${id}`),
      await api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: false }),
      await api.delete(`/api/v1/subscriptions/${id}`),
      await api.post(`/api/v1/subscriptions/${id}/rotate_secret`),
      await api.post(`/api/v1/subscriptions/${id}/test`),
      await api.get(`/api/v1/subscriptions/${id}/deliveries`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await api.get(`/api/v1/playbooks/${playbookId}/subscriptions`)).body.data).toEqual([]);
    const kept = await h.prisma.subscription.findUniqueOrThrow({ where: { id } });
    expect(kept.deletedAt).toBeInstanceOf(Date);
  });

  it("answers 404 for another account's subscription and playbook on every operation", async () => {
    const a = await owner();
    const b = await owner();
    const id: string = (await subscribe(a)).body.id;
    for (const res of [
      await b.api.get(`/api/v1/subscriptions/${id}`),
      await b.api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: false }),
      await b.api.delete(`/api/v1/subscriptions/${id}`),
      await b.api.post(`/api/v1/subscriptions/${id}/rotate_secret`),
      await b.api.post(`/api/v1/subscriptions/${id}/test`),
      await b.api.get(`/api/v1/subscriptions/${id}/deliveries`),
      await b.api
        .post(`/api/v1/subscriptions/${id}/recover`)
        .send({ since: '2020-01-01T00:00:00Z' }),
      await b.api.get(`/api/v1/playbooks/${a.playbookId}/subscriptions`),
      await b.api.post(`/api/v1/playbooks/${a.playbookId}/subscriptions`).send(subscriptionBody()),
    ]) {
      expect(res.status).toBe(404);
      expect(isError(res.body).ok).toBe(true);
    }
    expect((await b.api.get('/api/v1/subscriptions')).body.data).toEqual([]);
    const untouched = await a.api.get(`/api/v1/subscriptions/${id}`);
    expect(untouched.body.enabled).toBe(true);
    const row = await h.prisma.subscription.findUniqueOrThrow({ where: { id } });
    expect(row.deletedAt).toBeNull();
  });

  it('answers 404 for a deleted playbook', async () => {
    const { api, playbookId } = await owner();
    expect((await api.delete(`/api/v1/playbooks/${playbookId}`)).status).toBe(204);
    const create = await subscribe({ api, playbookId });
    expect(create.status).toBe(404);
    expect(create.body.error.message).toContain('playbook');
    expect((await api.get(`/api/v1/playbooks/${playbookId}/subscriptions`)).status).toBe(404);
    expect(await h.prisma.subscription.count({ where: { playbookId } })).toBe(0);
  });
});

describe('account-wide subscriptions', () => {
  it('POST /subscriptions makes one with playbook_id null; GET /subscriptions lists every kind', async () => {
    const { api, playbookId } = await owner();
    const wide = await api.post('/api/v1/subscriptions').send(subscriptionBody({ events: ['*'] }));
    expect(wide.status).toBe(201);
    expect(isSubscriptionWithSecret(wide.body).ok).toBe(true);
    expect(wide.body.playbook_id).toBeNull();
    const own = await subscribe({ api, playbookId });
    const all = await api.get('/api/v1/subscriptions');
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([own.body.id, wide.body.id]);
    // The playbook's list holds only its own.
    const mine = await api.get(`/api/v1/playbooks/${playbookId}/subscriptions`);
    expect(mine.body.data.map((s: { id: string }) => s.id)).toEqual([own.body.id]);
    expect((await api.get(`/api/v1/subscriptions/${wide.body.id}`)).body.playbook_id).toBeNull();
    // scope=account: the account-wide ones only, for a list that pages without the playbooks'.
    const accountWide = await api.get('/api/v1/subscriptions?scope=account');
    expect(accountWide.body.data.map((s: { id: string }) => s.id)).toEqual([wide.body.id]);
    expect((await api.get('/api/v1/subscriptions?scope=all')).body.data).toHaveLength(2);
    expect((await api.get('/api/v1/subscriptions?scope=mine')).status).toBe(422);
  });

  it('paginates newest first with next_cursor', async () => {
    const { api } = await owner();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await api.post('/api/v1/subscriptions').send(subscriptionBody())).body.id);
    }
    const first = await api.get('/api/v1/subscriptions?limit=3');
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(2).reverse());
    expect(first.body.next_cursor).toBe(ids[2]);
    const second = await api.get(`/api/v1/subscriptions?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.body.next_cursor).toBeNull();
  });
});

describe('the secret', () => {
  it('is answered by create and rotate_secret only, never by read, list or update', async () => {
    const { api, playbookId } = await owner();
    const created = await subscribe({ api, playbookId });
    const id: string = created.body.id;
    const secret: string = created.body.secret;
    const answers = [
      await api.get(`/api/v1/subscriptions/${id}`),
      await api.patch(`/api/v1/subscriptions/${id}`).send({ url: 'https://crm.example.com/b' }),
      await api.get(`/api/v1/playbooks/${playbookId}/subscriptions`),
      await api.get('/api/v1/subscriptions'),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain('whsec_');
    }
    expect(answers[0]?.body).not.toHaveProperty('secret');
    expect(isSubscription(answers[1]?.body).ok).toBe(true);
  });

  it('rotation issues a new secret and keeps the old one as previous_secret for ~24 h', async () => {
    const { api } = await owner();
    const created = await api.post('/api/v1/subscriptions').send(subscriptionBody());
    const id: string = created.body.id;
    const before = Date.now();
    const rotated = await api.post(`/api/v1/subscriptions/${id}/rotate_secret`);
    const after = Date.now();
    expect(rotated.status).toBe(200);
    expect(isSubscriptionWithSecret(rotated.body).ok).toBe(true);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + DAY_MS);
    expect(expires).toBeLessThanOrEqual(after + DAY_MS);

    const row = await h.prisma.subscription.findUniqueOrThrow({ where: { id } });
    expect(row.secret).toBe(rotated.body.secret);
    expect(row.previousSecret).toBe(created.body.secret);
    expect(row.previousSecretExpiresAt?.getTime()).toBe(expires);
    const read = await api.get(`/api/v1/subscriptions/${id}`);
    expect(read.text).not.toContain('whsec_');
    expect(read.body.previous_secret_expires_at).toBe(rotated.body.previous_secret_expires_at);
  });

  it('is read-only: sending it is refused', async () => {
    const { api } = await owner();
    const res = await api
      .post('/api/v1/subscriptions')
      .send(subscriptionBody({ secret: 'whsec_mine', disabled_reason: 'x' }));
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'secret', code: 'read_only' }),
        expect.objectContaining({ field: 'disabled_reason', code: 'read_only' }),
      ]),
    );
  });
});

describe('enabled', () => {
  it('disabling records manual; re-enabling clears disabled_code, disabled_reason, disabled_at and failing_since', async () => {
    const { api } = await owner();
    const id: string = (await api.post('/api/v1/subscriptions').send(subscriptionBody())).body.id;
    const off = await api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      enabled: false,
      disabled_reason: 'manual',
      disabled_code: 'manual',
    });
    expect(Date.parse(off.body.disabled_at)).not.toBeNaN();

    // As the webhook worker leaves a subscription after five days of failures.
    await h.prisma.subscription.update({
      where: { id },
      data: {
        disabledReason: 'Every delivery failed for 5 days (since 2026-11-15T00:00:00.000Z).',
        disabledCode: 'failing',
        disabledAt: new Date('2026-11-20T00:00:00Z'),
        failingSince: new Date('2026-11-15T00:00:00Z'),
      },
    });
    const seen = await api.get(`/api/v1/subscriptions/${id}`);
    expect(seen.body).toMatchObject({
      enabled: false,
      disabled_reason: 'Every delivery failed for 5 days (since 2026-11-15T00:00:00.000Z).',
      disabled_code: 'failing',
      disabled_at: '2026-11-20T00:00:00.000Z',
      failing_since: '2026-11-15T00:00:00.000Z',
    });
    // Disabling again keeps the worker's reason.
    const again = await api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: false });
    expect(again.body).toMatchObject({
      disabled_reason: 'Every delivery failed for 5 days (since 2026-11-15T00:00:00.000Z).',
      disabled_code: 'failing',
    });

    const on = await api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: true });
    expect(on.body).toMatchObject({
      enabled: true,
      disabled_reason: null,
      disabled_code: null,
      disabled_at: null,
      failing_since: null,
    });
    const row = await h.prisma.subscription.findUniqueOrThrow({ where: { id } });
    expect([row.enabled, row.disabledReason, row.disabledAt, row.failingSince]).toEqual([
      true,
      null,
      null,
      null,
    ]);
  });
  it('records the manual code the metrics count, created or patched off, and clears it on enabling', async () => {
    const { api } = await owner();
    const code = async (id: string) =>
      (await h.prisma.subscription.findUniqueOrThrow({ where: { id } })).disabledCode;
    const created: string = (
      await api.post('/api/v1/subscriptions').send(subscriptionBody({ enabled: false }))
    ).body.id;
    expect(await code(created)).toBe('manual');

    const id: string = (await api.post('/api/v1/subscriptions').send(subscriptionBody())).body.id;
    expect(await code(id)).toBeNull();
    await api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: false }).expect(200);
    expect(await code(id)).toBe('manual');
    // As the webhook worker leaves one it disabled: disabling again keeps its code.
    await h.prisma.subscription.update({ where: { id }, data: { disabledCode: 'gone' } });
    const again = await api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: false });
    expect(again.body.disabled_code).toBe('gone');
    expect(await code(id)).toBe('gone');
    await api.patch(`/api/v1/subscriptions/${id}`).send({ enabled: true }).expect(200);
    expect(await code(id)).toBeNull();
  });
});

describe('labels', () => {
  it.each([
    [{ events: ['first_message_sent', 'banana'] }, 'events[1]', 'unknown_label', 'banana'],
    [{ outcomes: ['sold'] }, 'outcomes[0]', 'unknown_label', 'sold'],
    [{ events: ['qualified'], outcomes: [] }, 'events[0]', 'unknown_label', 'outcomes'],
    [{ outcomes: ['first_message_sent'] }, 'outcomes[0]', 'unknown_label', 'first_message_sent'],
    // The test delivery's label is reserved: every subscription gets it when tested.
    [
      { events: ['started', 'test'] },
      'events[1]',
      'reserved_label',
      'POST /subscriptions/{id}/test',
    ],
    [{ outcomes: ['test'] }, 'outcomes[0]', 'reserved_label', 'reserved'],
    [{ events: ['*', 'started'] }, 'events', 'invalid', '"*"'],
    [{ events: [], outcomes: [] }, null, 'no_labels', 'at least one'],
    [{ events: undefined, outcomes: undefined }, null, 'no_labels', 'at least one'],
    [{ events: 'started' }, 'events', 'invalid', ''],
    [{ events: ['started', 'started'] }, 'events', 'invalid', ''],
  ])('refuses %j', async (overrides, field, code, mentions) => {
    const { api, playbookId } = await owner();
    const res = await subscribe({ api, playbookId }, overrides);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details).toEqual([{ field, code, message: expect.any(String) }]);
    expect(res.body.error.details[0].message).toContain(mentions);
    expect(await h.prisma.subscription.count({ where: { playbookId } })).toBe(0);
  });

  it('accepts ["*"] for either kind, and one kind empty', async () => {
    const { api } = await owner();
    for (const body of [
      { events: ['*'], outcomes: ['*'] },
      { events: ['*'], outcomes: [] },
      { events: [], outcomes: ['*'] },
      { outcomes: ['opted_out'] },
      { events: ['interested'], outcomes: ['interested'] },
    ]) {
      const res = await api.post('/api/v1/subscriptions').send({ url: HOOK, ...body });
      expect([body, res.status]).toEqual([body, 201]);
      expect(res.body.events).toEqual(body.events ?? []);
      expect(res.body.outcomes).toEqual(body.outcomes);
    }
  });

  it('PATCH keeps at least one label overall and checks the labels it sends', async () => {
    const { api } = await owner();
    const id: string = (
      await api.post('/api/v1/subscriptions').send({ url: HOOK, events: ['started'], outcomes: [] })
    ).body.id;
    const emptied = await api.patch(`/api/v1/subscriptions/${id}`).send({ events: [] });
    expect(emptied.status).toBe(422);
    expect(emptied.body.error.details[0].code).toBe('no_labels');
    const unknown = await api.patch(`/api/v1/subscriptions/${id}`).send({ outcomes: ['nope'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details[0]).toMatchObject({
      field: 'outcomes[0]',
      code: 'unknown_label',
    });
    expect((await api.get(`/api/v1/subscriptions/${id}`)).body).toMatchObject({
      events: ['started'],
      outcomes: [],
    });
  });
});

describe('url', () => {
  const refused = [
    ['ftp://crm.example.com/hook', 'invalid'],
    ['http://127.0.0.1:4000/hook', 'private_target'],
    ['http://[::1]/hook', 'private_target'],
    ['http://10.1.2.3/hook', 'private_target'],
    ['http://169.254.169.254/latest/meta-data/', 'private_target'],
    ['http://localhost:8080/hook', 'private_target'],
    ['http://[::127.0.0.1]/hook', 'private_target'],
    ['http:///crm.example.com/hook', 'invalid'],
  ] as const;

  it.each(refused)('refuses %s with 422 when private targets are disallowed', async (url, code) => {
    const { api, playbookId } = await owner();
    const res = await subscribe({ api, playbookId }, { url });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'url', code, message: expect.any(String) }]);
    const wide = await api.post('/api/v1/subscriptions').send(subscriptionBody({ url }));
    expect(wide.status).toBe(422);
  });

  it('refuses a private url on PATCH too, leaving the stored one', async () => {
    const { api } = await owner();
    const id: string = (await api.post('/api/v1/subscriptions').send(subscriptionBody())).body.id;
    const res = await api.patch(`/api/v1/subscriptions/${id}`).send({ url: 'http://10.0.0.7/' });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toMatchObject({ field: 'url', code: 'private_target' });
    expect((await api.get(`/api/v1/subscriptions/${id}`)).body.url).toBe(HOOK);
  });

  it('accepts private and loopback hosts when the operator allows them, but not ftp', async () => {
    const { apiKey } = await owner();
    const lax = h.withOptions({ webhookAllowPrivateTargets: true }).as(apiKey);
    for (const [url, code] of refused) {
      const res = await lax.post('/api/v1/subscriptions').send(subscriptionBody({ url }));
      expect([url, res.status]).toEqual([url, code === 'invalid' ? 422 : 201]);
    }
  });

  it('refuses a url that is not a URL', async () => {
    const { api } = await owner();
    const res = await api.post('/api/v1/subscriptions').send(subscriptionBody({ url: 'crm' }));
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('url');
  });
});
