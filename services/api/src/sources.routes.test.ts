import { marketingSourceSchema } from '@leadhook/contracts';
import { useHarness } from '@leadhook/testkit';
import { PUBLIC_BASE_URL, playbookBody, sourceBody, startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isSource = bodyValidator(marketingSourceSchema);

const h = useHarness(() => startHarness());

/** An account with one playbook. */
const owner = () => h.owner();

async function intakeKeyOf(id: string): Promise<string> {
  return (await h.prisma.marketingSource.findUniqueOrThrow({ where: { id } })).intakeKey;
}

describe('marketing sources CRUD', () => {
  it('creates with defaults and a post_url made of the account id and the secret key', async () => {
    const { api, accountId, playbookId } = await owner();
    const res = await api.post('/api/v1/marketing_sources').send(sourceBody(playbookId));
    expect(res.status).toBe(201);
    expect(isSource(res.body).ok).toBe(true);
    expect(res.body).toMatchObject({
      name: 'Acme Leads',
      source_type: 'vendor',
      playbook_id: playbookId,
      status: 'active',
      rate_limit: null,
      redirect_url: null,
      consent_required: 'any',
    });
    expect(res.body.id).toMatch(/^src_[0-9a-z]{26}$/);
    const key = await intakeKeyOf(res.body.id);
    expect(key).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(res.body.post_url).toBe(`${PUBLIC_BASE_URL}/marketing_sources/${accountId}/${key}`);
    // The key is only in post_url: the management id is a different, non-secret value.
    expect(res.body.id).not.toContain(key);
  });

  it('reads, updates every writable field, and soft-deletes (204, then 404)', async () => {
    const { api, playbookId } = await owner();
    const other: string = (await api.post('/api/v1/playbooks').send(playbookBody())).body.id;
    const created = (await api.post('/api/v1/marketing_sources').send(sourceBody(playbookId))).body;
    expect((await api.get(`/api/v1/marketing_sources/${created.id}`)).body).toEqual(created);

    const patch = {
      name: 'Renamed',
      source_type: 'web_form',
      playbook_id: other,
      status: 'paused',
      rate_limit: 0,
      redirect_url: 'https://example.com/thanks',
      consent_required: 'recognised',
    };
    const updated = await api.patch(`/api/v1/marketing_sources/${created.id}`).send(patch);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ ...patch, post_url: created.post_url });
    const cleared = await api
      .patch(`/api/v1/marketing_sources/${created.id}`)
      .send({ rate_limit: null, redirect_url: null });
    expect(cleared.body).toMatchObject({ rate_limit: null, redirect_url: null, name: 'Renamed' });

    expect((await api.delete(`/api/v1/marketing_sources/${created.id}`)).status).toBe(204);
    for (const res of [
      await api.get(`/api/v1/marketing_sources/${created.id}`),
      await api.patch(`/api/v1/marketing_sources/${created.id}`).send({ name: 'x' }),
      await api.post(`/api/v1/marketing_sources/${created.id}/rotate_url`),
      await api.get(`/api/v1/marketing_sources/${created.id}/integration`),
      await api.delete(`/api/v1/marketing_sources/${created.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const row = await h.prisma.marketingSource.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.deletedAt).toBeInstanceOf(Date);
  });

  it('creates with consent_required "recognised", keeps it, and sets it back to "any"', async () => {
    const { api, playbookId } = await owner();
    const res = await api
      .post('/api/v1/marketing_sources')
      .send(sourceBody(playbookId, { consent_required: 'recognised' }));
    expect(res.status).toBe(201);
    expect(res.body.consent_required).toBe('recognised');
    const row = await h.prisma.marketingSource.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.consentRequired).toBe('recognised');
    expect((await api.get(`/api/v1/marketing_sources/${res.body.id}`)).body).toEqual(res.body);
    const patched = await api
      .patch(`/api/v1/marketing_sources/${res.body.id}`)
      .send({ consent_required: 'any' });
    expect(patched.status).toBe(200);
    expect(patched.body.consent_required).toBe('any');
  });

  it("answers 404 for another account's source on every operation", async () => {
    const a = await owner();
    const b = await owner();
    const source = (await a.api.post('/api/v1/marketing_sources').send(sourceBody(a.playbookId)))
      .body;
    const keyBefore = await intakeKeyOf(source.id);
    for (const res of [
      await b.api.get(`/api/v1/marketing_sources/${source.id}`),
      await b.api.patch(`/api/v1/marketing_sources/${source.id}`).send({ status: 'paused' }),
      await b.api.delete(`/api/v1/marketing_sources/${source.id}`),
      await b.api.post(`/api/v1/marketing_sources/${source.id}/rotate_url`),
      await b.api.get(`/api/v1/marketing_sources/${source.id}/integration`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await b.api.get('/api/v1/marketing_sources')).body.data).toEqual([]);
    expect(await intakeKeyOf(source.id)).toBe(keyBefore);
    expect((await a.api.get(`/api/v1/marketing_sources/${source.id}`)).body).toEqual(source);
  });
});

describe('marketing source validation', () => {
  it.each([
    [{ source_type: 'radio' }, 'source_type', 'invalid'],
    [{ status: 'archived' }, 'status', 'invalid'],
    [{ rate_limit: -1 }, 'rate_limit', 'invalid'],
    [{ rate_limit: 2.5 }, 'rate_limit', 'invalid'],
    [{ redirect_url: 'ftp://example.com/x' }, 'redirect_url', 'invalid'],
    [{ redirect_url: 'not a url' }, 'redirect_url', 'invalid'],
    [{ consent_required: 'trustedform' }, 'consent_required', 'invalid'],
    [{ consent_required: null }, 'consent_required', 'invalid'],
    [{ name: '' }, 'name', 'invalid'],
    [{ post_url: 'https://evil.example' }, 'post_url', 'read_only'],
    [{ intake_key: 'abc' }, 'intake_key', 'unknown_field'],
  ])('refuses %j', async (override, field, code) => {
    const { api, playbookId } = await owner();
    const res = await api.post('/api/v1/marketing_sources').send(sourceBody(playbookId, override));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details).toEqual([{ field, code, message: expect.any(String) }]);
  });

  it('lists every missing required field', async () => {
    const { api } = await owner();
    const res = await api.post('/api/v1/marketing_sources').send({});
    expect(res.status).toBe(422);
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['name', 'playbook_id', 'source_type']);
  });

  it("refuses another account's playbook, a deleted one and an unknown one (422)", async () => {
    const a = await owner();
    const b = await owner();
    const deleted: string = (await a.api.post('/api/v1/playbooks').send(playbookBody())).body.id;
    expect((await a.api.delete(`/api/v1/playbooks/${deleted}`)).status).toBe(204);
    for (const playbookId of [b.playbookId, deleted, 'pb_00000000000000000000000000']) {
      const res = await a.api.post('/api/v1/marketing_sources').send(sourceBody(playbookId));
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([
        { field: 'playbook_id', code: 'not_found', message: expect.any(String) },
      ]);
    }
    const source = (await a.api.post('/api/v1/marketing_sources').send(sourceBody(a.playbookId)))
      .body;
    const moved = await a.api
      .patch(`/api/v1/marketing_sources/${source.id}`)
      .send({ playbook_id: b.playbookId });
    expect(moved.status).toBe(422);
    expect((await a.api.get(`/api/v1/marketing_sources/${source.id}`)).body.playbook_id).toBe(
      a.playbookId,
    );
  });
});

describe('POST /marketing_sources/{id}/rotate_url', () => {
  it('answers 200 with the source whose post_url carries a new key', async () => {
    const { api, accountId, playbookId } = await owner();
    const source = (await api.post('/api/v1/marketing_sources').send(sourceBody(playbookId))).body;
    const oldKey = await intakeKeyOf(source.id);
    const res = await api.post(`/api/v1/marketing_sources/${source.id}/rotate_url`);
    expect(res.status).toBe(200);
    expect(isSource(res.body).ok).toBe(true);
    const newKey = await intakeKeyOf(source.id);
    expect(newKey).not.toBe(oldKey);
    expect(res.body.post_url).toBe(`${PUBLIC_BASE_URL}/marketing_sources/${accountId}/${newKey}`);
    expect(res.body.post_url).not.toBe(source.post_url);
    expect(res.body.id).toBe(source.id);
    // Nothing answers to the old key any more.
    expect(await h.prisma.marketingSource.count({ where: { intakeKey: oldKey } })).toBe(0);
    expect((await api.get(`/api/v1/marketing_sources/${source.id}`)).body.post_url).toBe(
      res.body.post_url,
    );
  });
});

describe('GET /marketing_sources pagination', () => {
  it('walks every source once across pages and skips deleted ones', async () => {
    const { api, playbookId } = await owner();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        (
          await api
            .post('/api/v1/marketing_sources')
            .send(sourceBody(playbookId, { name: `S${i}` }))
        ).body.id,
      );
    }
    expect((await api.delete(`/api/v1/marketing_sources/${ids[3]}`)).status).toBe(204);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api
        .get('/api/v1/marketing_sources')
        .query({ limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((s: { id: string }) => s.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids.filter((_, i) => i !== 3).reverse());
  });
});
