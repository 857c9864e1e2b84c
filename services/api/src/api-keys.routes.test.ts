import { apiKeyListSchema, apiKeyWithSecretSchema } from '@leadhook/contracts';
import { hashApiKey } from '@leadhook/db';
import { useHarness } from '@leadhook/testkit';
import { LAST_USED_RESOLUTION_MS } from './auth.middleware.js';
import { startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isKeyWithSecret = bodyValidator(apiKeyWithSecretSchema);
const isKeyList = bodyValidator(apiKeyListSchema);

const h = useHarness(() => startHarness());

describe('named API keys (docs/api.md, "API keys")', () => {
  it('POST answers 201 with the key shown once; GET lists it without the key; both keys work', async () => {
    const { api_key } = await h.newAccount();
    const api = h.as(api_key);
    const created = await api.post('/api/v1/account/api_keys').send({ name: '  Zapier  ' });
    expect(created.status).toBe(201);
    expect(isKeyWithSecret(created.body).ok).toBe(true);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: 'Zapier',
      prefix: created.body.api_key.slice(0, 9),
      last_used_at: null,
    });
    const zapier: string = created.body.api_key;
    expect(zapier).toMatch(/^lh_[A-Za-z0-9_-]{43}$/);

    const listed = await h.as(zapier).get('/api/v1/account/api_keys');
    expect(listed.status).toBe(200);
    expect(isKeyList(listed.body).ok).toBe(true);
    expect(listed.body.data.map((k: { name: string }) => k.name)).toEqual(['Zapier', 'default']);
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(zapier);
    expect(text).not.toContain(api_key);
    const row = await h.prisma.apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(text).not.toContain(row.keyHash);
    expect(row.keyHash).not.toContain(zapier);
    // Both keys authenticate.
    expect((await api.get('/api/v1/account')).status).toBe(200);
  });

  it('DELETE revokes at once: the key answers 401 on its next request, again → 404, others keep working', async () => {
    const { api_key } = await h.newAccount();
    const api = h.as(api_key);
    const created = await api.post('/api/v1/account/api_keys').send({ name: 'CRM' });
    const crm = h.as(created.body.api_key);
    expect((await crm.get('/api/v1/account')).status).toBe(200);
    const revoked = await api.delete(`/api/v1/account/api_keys/${created.body.id}`);
    expect(revoked.status).toBe(204);
    expect((await crm.get('/api/v1/account')).status).toBe(401);
    expect((await api.delete(`/api/v1/account/api_keys/${created.body.id}`)).status).toBe(404);
    expect((await api.get('/api/v1/account')).status).toBe(200);
    const listed = await api.get('/api/v1/account/api_keys');
    expect(listed.body.data.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
  });

  it("another account's key id answers 404 and stays valid", async () => {
    const mine = await h.newAccount();
    const theirs = await h.newAccount();
    const key = await h.as(theirs.api_key).post('/api/v1/account/api_keys').send({ name: 'x' });
    expect(
      (await h.as(mine.api_key).delete(`/api/v1/account/api_keys/${key.body.id}`)).status,
    ).toBe(404);
    expect((await h.as(key.body.api_key).get('/api/v1/account')).status).toBe(200);
  });

  it('refuses a blank, missing or too long name with 422', async () => {
    const { api_key } = await h.newAccount();
    const api = h.as(api_key);
    for (const body of [
      { name: '   ' },
      { name: '' },
      {},
      { name: 'x'.repeat(101) },
      { name: 3 },
    ]) {
      const res = await api.post('/api/v1/account/api_keys').send(body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details[0].field).toBe('name');
    }
    expect(
      (await api.post('/api/v1/account/api_keys').send({ name: 'x'.repeat(100) })).status,
    ).toBe(201);
  });

  it('refuses the 51st active key with 409 api_key_limit; revoking one makes room', async () => {
    const { api_key, account_id } = await h.newAccount();
    const api = h.as(api_key);
    // 49 more through the store (fast), the 50th through the API.
    await h.prisma.apiKey.createMany({
      data: Array.from({ length: 48 }, (_, i) => ({
        id: `key_${String(i).padStart(26, '0')}`,
        accountId: account_id,
        keyHash: hashApiKey(`${account_id}-${i}`),
        prefix: 'lh_xxxxxx',
        name: `k${i}`,
      })),
    });
    const fiftieth = await api.post('/api/v1/account/api_keys').send({ name: 'fiftieth' });
    expect(fiftieth.status).toBe(201);
    const over = await api.post('/api/v1/account/api_keys').send({ name: 'one too many' });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('api_key_limit');
    await api.delete(`/api/v1/account/api_keys/${fiftieth.body.id}`).expect(204);
    expect((await api.post('/api/v1/account/api_keys').send({ name: 'again' })).status).toBe(201);
  });

  it('rotate replaces only the calling key, keeping its name', async () => {
    const { api_key } = await h.newAccount();
    const created = await h.as(api_key).post('/api/v1/account/api_keys').send({ name: 'Make' });
    const rotated = await h.as(created.body.api_key).post('/api/v1/account/api_keys/rotate');
    expect(rotated.status).toBe(200);
    expect((await h.as(created.body.api_key).get('/api/v1/account')).status).toBe(401);
    expect((await h.as(rotated.body.api_key).get('/api/v1/account')).status).toBe(200);
    // The other key was not touched.
    const listed = await h.as(api_key).get('/api/v1/account/api_keys');
    expect(
      listed.body.data.map((k: { name: string; prefix: string }) => [k.name, k.prefix]),
    ).toEqual([
      ['Make', rotated.body.api_key_prefix],
      ['default', api_key.slice(0, 9)],
    ]);
  });

  it('records last_used_at on use, at most once a minute per key', async () => {
    const { api_key, account_id } = await h.newAccount();
    const api = h.as(api_key);
    const lastUsed = async () =>
      (await h.prisma.apiKey.findFirstOrThrow({ where: { accountId: account_id } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await api.get('/api/v1/account').expect(200);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await api.get('/api/v1/account').expect(200);
    expect(await lastUsed()).toEqual(first);
    // Once the recorded use is older than the resolution, the next request writes it again.
    const old = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 1000);
    await h.prisma.apiKey.updateMany({
      where: { accountId: account_id },
      data: { lastUsedAt: old },
    });
    const listed = await api.get('/api/v1/account/api_keys');
    const after = await lastUsed();
    expect(after!.getTime()).toBeGreaterThan(old.getTime() + 1000);
    expect(listed.body.data[0].last_used_at).toBe(after!.toISOString());
  });
});

describe('fields the server sets', () => {
  it('refuses api_key, prefix and last_used_at in a create body as read_only', async () => {
    const { api_key } = await h.newAccount();
    const res = await h
      .as(api_key)
      .post('/api/v1/account/api_keys')
      .send({ name: 'x', api_key: 'lh_mine', prefix: 'lh_', last_used_at: null });
    expect(res.status).toBe(422);
    expect(
      res.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code]).sort(),
    ).toEqual([
      ['api_key', 'read_only'],
      ['last_used_at', 'read_only'],
      ['prefix', 'read_only'],
    ]);
  });
});
