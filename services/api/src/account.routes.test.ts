import { accountSchema, errorEnvelopeSchema } from '@leadhook/contracts';
import { useHarness } from '@leadhook/testkit';
import supertest from 'supertest';
import { startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isAccount = bodyValidator(accountSchema);
const isError = bodyValidator(errorEnvelopeSchema);

const h = useHarness(() => startHarness());

function expectUnauthorized(res: supertest.Response) {
  expect(res.status).toBe(401);
  expect(isError(res.body).ok).toBe(true);
  expect(res.body.error.code).toBe('unauthorized');
  expect(res.headers['www-authenticate']).toBe('Bearer');
}

describe('authentication', () => {
  it('refuses a request without a key', async () => {
    expectUnauthorized(await h.anonymous.get('/api/v1/account'));
  });

  it('refuses a wrong key, a malformed header and another scheme', async () => {
    const { api_key } = await h.newAccount();
    expectUnauthorized(await h.as(`${api_key}x`).get('/api/v1/account'));
    expectUnauthorized(await h.as('lh_nope').get('/api/v1/account'));
    expectUnauthorized(
      await h.anonymous.get('/api/v1/account').set('authorization', `Basic ${api_key}`),
    );
    expectUnauthorized(await h.anonymous.get('/api/v1/account').set('authorization', api_key));
  });

  it('guards every resource, not only /account', async () => {
    for (const path of ['/api/v1/playbooks', '/api/v1/marketing_sources']) {
      expectUnauthorized(await h.anonymous.get(path));
    }
    // A route that does not exist is not in the document, so not checked against it.
    expectUnauthorized(await supertest(h.app).get('/api/v1/nowhere'));
  });

  it('stores only the hash of the key', async () => {
    const { account_id, api_key } = await h.newAccount();
    const keys = await h.prisma.apiKey.findMany({ where: { accountId: account_id } });
    expect(keys).toHaveLength(1);
    expect(keys[0]!.keyHash).not.toContain(api_key);
    expect(keys[0]!.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('GET /account', () => {
  it('answers the authenticated account', async () => {
    const { account_id, api_key } = await h.newAccount('Northwind Leads');
    const res = await h.as(api_key).get('/api/v1/account');
    expect(res.status).toBe(200);
    expect(isAccount(res.body)).toEqual({ ok: true, value: res.body });
    expect(res.body).toMatchObject({
      id: account_id,
      name: 'Northwind Leads',
      duplicate_window_days: null,
      api_key_prefix: api_key.slice(0, 9),
    });
    expect(JSON.stringify(res.body)).not.toContain(api_key);
  });
});

describe('PATCH /account', () => {
  it('updates the name and the duplicate window, and null restores the default', async () => {
    const { api_key } = await h.newAccount();
    const api = h.as(api_key);
    const set = await api
      .patch('/api/v1/account')
      .send({ name: 'Renamed', duplicate_window_days: 7 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ name: 'Renamed', duplicate_window_days: 7 });
    expect((await api.get('/api/v1/account')).body.duplicate_window_days).toBe(7);
    const cleared = await api.patch('/api/v1/account').send({ duplicate_window_days: null });
    expect(cleared.body).toMatchObject({ name: 'Renamed', duplicate_window_days: null });
  });

  it.each([
    [{ duplicate_window_days: 0 }, 'duplicate_window_days', 'invalid'],
    [{ duplicate_window_days: 366 }, 'duplicate_window_days', 'invalid'],
    [{ duplicate_window_days: 1.5 }, 'duplicate_window_days', 'invalid'],
    [{ duplicate_window_days: '30' }, 'duplicate_window_days', 'invalid'],
    [{ name: '   ' }, 'name', 'invalid'],
    [{ name: 'x'.repeat(201) }, 'name', 'too_long'],
    [{ plan: 'gold' }, 'plan', 'unknown_field'],
    [{ id: 'acc_x' }, 'id', 'read_only'],
  ])('refuses %j', async (body, field, code) => {
    const { api_key } = await h.newAccount();
    const res = await h.as(api_key).patch('/api/v1/account').send(body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details).toEqual([{ field, code, message: expect.any(String) }]);
  });

  it('lists every problem, not the first', async () => {
    const { api_key } = await h.newAccount();
    const res = await h
      .as(api_key)
      .patch('/api/v1/account')
      .send({ name: '', duplicate_window_days: 0, color: 'red' });
    expect(res.status).toBe(422);
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['color', 'duplicate_window_days', 'name']);
  });

  it.each([
    ['malformed JSON', 'application/json', '{"name": ', 400, 'malformed_body'],
    ['a non-object', 'application/json', [1, 2], 400, 'malformed_body'],
    ['another content type', 'text/plain', 'name=x', 415, 'unsupported_media_type'],
  ])('answers %s (%s) with %i %s', async (_what, type, body, status, code) => {
    const { api_key } = await h.newAccount();
    const res = await h.as(api_key).patch('/api/v1/account').set('content-type', type).send(body);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });
});

describe('POST /account/api_keys/rotate', () => {
  it('answers the new key once; the old key stops at once, the new one works', async () => {
    const { api_key: oldKey } = await h.newAccount();
    const res = await h.as(oldKey).post('/api/v1/account/api_keys/rotate');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const newKey: string = res.body.api_key;
    expect(newKey).toMatch(/^lh_[A-Za-z0-9_-]{43}$/);
    expect(newKey).not.toBe(oldKey);
    expect(res.body.api_key_prefix).toBe(newKey.slice(0, 9));

    expectUnauthorized(await h.as(oldKey).get('/api/v1/account'));
    const after = await h.as(newKey).get('/api/v1/account');
    expect(after.status).toBe(200);
    expect(after.body.api_key_prefix).toBe(newKey.slice(0, 9));
    expect(JSON.stringify(after.body)).not.toContain(newKey);
  });
});

describe('unknown routes', () => {
  it('answer 404 not_found in the envelope', async () => {
    const { api_key } = await h.newAccount();
    // Routes that do not exist are not in the document: plain supertest, unchecked.
    const auth = `Bearer ${api_key}`;
    for (const res of [
      await supertest(h.app).get('/api/v1/nowhere').set('authorization', auth),
      await supertest(h.app).put('/api/v1/account').set('authorization', auth),
      await supertest(h.app).get('/nowhere'),
    ]) {
      expect(res.status).toBe(404);
      expect(isError(res.body).ok).toBe(true);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
