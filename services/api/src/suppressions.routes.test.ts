import { createPool } from '@leadhook/db';
import { useHarness, waitFor } from '@leadhook/testkit';
import { startHarness } from './testing/harness.js';

const h = useHarness(() => startHarness());

/** `n` distinct dialable US numbers in E.164. */
const phones = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `+1512${2_000_000 + (from + i) * 7}`);

describe('do-not-contact list: one phone at a time', () => {
  it('adds (201), answers the first entry again (200), looks up in any notation', async () => {
    const { api, accountId } = await h.owner();
    const added = await api.post('/api/v1/suppressions').send({ phone: '(512) 555-0100' });
    expect(added.status).toBe(201);
    const key = await h.prisma.apiKey.findFirstOrThrow({ where: { accountId } });
    expect(added.body).toMatchObject({
      phone: '+15125550100',
      reason: 'manual',
      api_key_id: key.id,
      import_id: null,
      lead_id: null,
      note: null,
    });
    const withNote = await api
      .post('/api/v1/suppressions')
      .send({ phone: '+15125550111', reason: 'complaint', note: 'ticket 4812' });
    expect(withNote.body).toMatchObject({ reason: 'complaint', note: 'ticket 4812' });
    const again = await api
      .post('/api/v1/suppressions')
      .send({ phone: '+1 512 555 0100', reason: 'complaint', note: 'ticket 4812' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(added.body);

    for (const notation of ['+15125550100', '(512) 555-0100', '512.555.0100', '1-512-555-0100']) {
      const found = await api.get(`/api/v1/suppressions/${encodeURIComponent(notation)}`);
      expect([notation, found.status, found.body]).toEqual([notation, 200, added.body]);
    }
    expect((await api.get('/api/v1/suppressions/%2B15125550101')).status).toBe(404);
    const notPhone = await api.get('/api/v1/suppressions/not-a-phone');
    expect(notPhone.status).toBe(422);
    expect(notPhone.body.error.details[0]).toMatchObject({ field: 'phone', code: 'invalid' });
    const badBody = await api.post('/api/v1/suppressions').send({ phone: '12' });
    expect(badBody.status).toBe(422);
  });

  it('lists in phone order with a cursor, filters by reason, and keeps accounts apart', async () => {
    const { api } = await h.owner();
    const [a, b, c] = phones(3);
    await api.post('/api/v1/suppressions').send({ phone: c });
    await api.post('/api/v1/suppressions').send({ phone: a, reason: 'complaint' });
    await api.post('/api/v1/suppressions').send({ phone: b });
    const first = await api.get('/api/v1/suppressions?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((s: { phone: string }) => s.phone)).toEqual([a, b]);
    expect(first.body.next_cursor).toBe(b);
    const rest = await api.get(`/api/v1/suppressions?limit=2&cursor=${encodeURIComponent(b!)}`);
    expect(rest.body.data.map((s: { phone: string }) => s.phone)).toEqual([c]);
    expect(rest.body.next_cursor).toBeNull();
    const complaints = await api.get('/api/v1/suppressions?reason=complaint');
    expect(complaints.body.data.map((s: { phone: string }) => s.phone)).toEqual([a]);
    expect((await api.get('/api/v1/suppressions?reason=nope')).status).toBe(422);

    const other = await h.owner();
    expect((await other.api.get('/api/v1/suppressions')).body.data).toEqual([]);
    expect((await other.api.get(`/api/v1/suppressions/${encodeURIComponent(a!)}`)).status).toBe(
      404,
    );
  });

  it('deletes (204, then 404) and records who removed which entry and when', async () => {
    const { api, accountId } = await h.owner();
    const added = (await api.post('/api/v1/suppressions').send({ phone: '5125550123' })).body;
    const res = await api.delete(`/api/v1/suppressions/${encodeURIComponent('(512) 555-0123')}`);
    expect(res.status).toBe(204);
    expect((await api.get('/api/v1/suppressions/5125550123')).status).toBe(404);
    expect((await api.delete('/api/v1/suppressions/5125550123')).status).toBe(404);
    const key = await h.prisma.apiKey.findFirstOrThrow({ where: { accountId } });
    const removals = await h.prisma.suppressionRemoval.findMany({ where: { accountId } });
    expect(removals).toEqual([
      expect.objectContaining({
        phone: '+15125550123',
        reason: 'manual',
        listedAt: new Date(added.created_at),
        removedByApiKeyId: key.id,
      }),
    ]);
    expect(removals[0]!.removedAt.getTime()).toBeGreaterThanOrEqual(
      new Date(added.created_at).getTime(),
    );
  });
});

describe('GET /suppressions/removals', () => {
  it("lists removals newest first, a page at a time, one phone in any notation, the account's own", async () => {
    const { api, accountId } = await h.owner();
    const key = await h.prisma.apiKey.findFirstOrThrow({ where: { accountId } });
    const phones = ['+15125550131', '+15125550132', '+15125550133'];
    for (const phone of phones) {
      await api.post('/api/v1/suppressions').send({ phone, reason: 'complaint' }).expect(201);
      await api.delete(`/api/v1/suppressions/${encodeURIComponent(phone)}`).expect(204);
    }
    // The first phone again: listed, removed a second time.
    await api.post('/api/v1/suppressions').send({ phone: phones[0] }).expect(201);
    await api.delete(`/api/v1/suppressions/${encodeURIComponent(phones[0]!)}`).expect(204);
    // Another account's removal is not shown.
    const other = await h.owner();
    await other.api.post('/api/v1/suppressions').send({ phone: phones[1] }).expect(201);
    await other.api.delete(`/api/v1/suppressions/${encodeURIComponent(phones[1]!)}`).expect(204);

    const first = await api.get('/api/v1/suppressions/removals?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: { phone: string }) => r.phone)).toEqual([
      phones[0],
      phones[2],
      phones[1],
    ]);
    expect(first.body.data[0]).toEqual({
      id: expect.stringMatching(/^sprm_[0-9a-z]{26}$/),
      phone: phones[0],
      reason: 'manual',
      listed_at: expect.any(String),
      removed_at: expect.any(String),
      removed_by_api_key_id: key.id,
    });
    expect(first.body.data[1].reason).toBe('complaint');
    const rest = await api.get(
      `/api/v1/suppressions/removals?limit=3&cursor=${first.body.next_cursor}`,
    );
    expect(rest.body).toEqual({
      data: [expect.objectContaining({ phone: phones[0], reason: 'complaint' })],
      next_cursor: null,
    });

    const one = await api.get(
      `/api/v1/suppressions/removals?phone=${encodeURIComponent('(512) 555-0131')}`,
    );
    expect(one.body.data.map((r: { reason: string }) => r.reason)).toEqual(['manual', 'complaint']);

    const bad = await api.get('/api/v1/suppressions/removals?phone=call-me');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'phone', code: 'invalid', message: 'Not a phone number.' },
    ]);
  });
});

describe('do-not-contact: an add and a step claim on the same phone are ordered', () => {
  it("an add waits while a claim holds the phone's lock (shared), then commits", async () => {
    const { api, accountId } = await h.owner();
    const phone = '+15125550177';
    const pool = createPool({ databaseUrl: h.db.url, max: 1 });
    const claim = await pool.connect();
    try {
      // What playbook_step_claim holds until its send commits.
      await claim.query('BEGIN');
      await claim.query('SELECT pg_advisory_xact_lock_shared(do_not_contact_lock_key($1, $2))', [
        accountId,
        phone,
      ]);
      const add = api
        .post('/api/v1/suppressions')
        .send({ phone })
        .then((res) => res);
      await waitFor(async () => {
        const [row] = await h.prisma.$queryRaw<{ waiting: boolean }[]>`
          SELECT count(*) > 0 AS waiting FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
        return row?.waiting;
      });
      expect(await h.prisma.suppression.count({ where: { accountId } })).toBe(0);
      await claim.query('COMMIT');
      expect((await add).status).toBe(201);
    } finally {
      claim.release();
      await pool.end();
    }
  });
});

describe('do-not-contact import', () => {
  it('takes 10,000 phones as JSON in one request; phones already listed keep their entry', async () => {
    const { api, accountId } = await h.owner();
    const key = await h.prisma.apiKey.findFirstOrThrow({ where: { accountId } });
    const listed = phones(1)[0]!;
    await api.post('/api/v1/suppressions').send({ phone: listed, reason: 'complaint' });
    const all = phones(10_000);
    const res = await api.post('/api/v1/suppressions/import').send({ phones: all });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      import_id: expect.stringMatching(/^imp_[0-9a-z]{26}$/),
      imported: 9_999,
      already_listed: 1,
    });
    expect(await h.prisma.suppression.count({ where: { accountId } })).toBe(10_000);
    expect(
      await h.prisma.suppression.count({
        where: { accountId, reason: 'imported', importId: res.body.import_id, apiKeyId: key.id },
      }),
    ).toBe(9_999);
    expect((await api.get(`/api/v1/suppressions/${encodeURIComponent(listed)}`)).body.reason).toBe(
      'complaint',
    );
    // Any 100 of them are listed for the playbooks' checks (the same key lookup).
    const sample = all.filter((_, i) => i % 100 === 0);
    expect(await h.prisma.suppression.count({ where: { accountId, phone: { in: sample } } })).toBe(
      100,
    );
  });

  it("lists one import's phones by its import_id, in phone order", async () => {
    const { api } = await h.owner();
    const first = await api.post('/api/v1/suppressions/import').send(phones(3));
    const second = await api.post('/api/v1/suppressions/import').send(phones(2));
    expect([first.status, second.status]).toEqual([200, 200]);
    const listed = await api.get(`/api/v1/suppressions?import_id=${first.body.import_id}&limit=2`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    const rest = await api.get(
      `/api/v1/suppressions?import_id=${first.body.import_id}&limit=2&cursor=${encodeURIComponent(listed.body.next_cursor)}`,
    );
    const all = [...listed.body.data, ...rest.body.data];
    expect(rest.body.next_cursor).toBeNull();
    expect(all.map((e: { phone: string }) => e.phone)).toEqual(
      all.map((e: { phone: string }) => e.phone).sort(),
    );
    expect(new Set(all.map((e: { import_id: string }) => e.import_id))).toEqual(
      new Set([first.body.import_id]),
    );
    const bad = await api.get('/api/v1/suppressions?import_id=nope');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('import_id');
  });

  it('refuses more than 10,000 phones', async () => {
    const { api, accountId } = await h.owner();
    const res = await api.post('/api/v1/suppressions/import').send({ phones: phones(10_001) });
    expect(res.status).toBe(422);
    const csv = await api
      .post('/api/v1/suppressions/import')
      .set('content-type', 'text/csv')
      .send(`phone\n${phones(10_001).join('\n')}\n`);
    expect(csv.status).toBe(422);
    expect(csv.body.error.details).toEqual([
      expect.objectContaining({ field: null, code: 'too_many_rows' }),
    ]);
    expect(await h.prisma.suppression.count({ where: { accountId } })).toBe(0);
  });

  it('answers every bad JSON row by its number and stores nothing', async () => {
    const { api, accountId } = await h.owner();
    const res = await api
      .post('/api/v1/suppressions/import')
      .send({ phones: [...phones(2), 'call me', ...phones(1, 5), '555'] });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'phones[2]', code: 'invalid', message: 'row 3: not a phone number.' },
      { field: 'phones[4]', code: 'invalid', message: 'row 5: not a phone number.' },
    ]);
    expect(await h.prisma.suppression.count({ where: { accountId } })).toBe(0);
  });

  it('takes the phones as a bare JSON array, checked like the object form', async () => {
    const { api, accountId } = await h.owner();
    const bad = await api.post('/api/v1/suppressions/import').send([...phones(1), 'nope']);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'phones[1]', code: 'invalid', message: 'row 2: not a phone number.' },
    ]);
    expect(await h.prisma.suppression.count({ where: { accountId } })).toBe(0);
    expect((await api.post('/api/v1/suppressions/import').send([])).status).toBe(422);

    const good = await api
      .post('/api/v1/suppressions/import')
      .send([...phones(2), '(512) 555-0100', phones(1)[0]]);
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ imported: 3, already_listed: 1 });
    expect(await h.prisma.suppression.count({ where: { accountId, reason: 'imported' } })).toBe(3);
  });

  it('takes an array body on the import route only', async () => {
    const { api } = await h.owner();
    const res = await api.post('/api/v1/suppressions').send(['+15125550100']);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('malformed_body');
  });

  it('takes CSV: a header, quotes, blank lines; a bad line is answered by its line number', async () => {
    const { api, accountId } = await h.owner();
    const [a, b] = phones(2);
    const bad = await api
      .post('/api/v1/suppressions/import')
      .set('content-type', 'text/csv')
      .send(`phone\r\n${a}\r\n\r\nnope\r\n"(512) 555-0100"\r\n${b},5\r\n`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'line 4', code: 'invalid', message: 'line 4: not a phone number.' },
      {
        field: 'line 6',
        code: 'invalid',
        message: 'line 6: more columns than the header row names.',
      },
    ]);
    expect(await h.prisma.suppression.count({ where: { accountId } })).toBe(0);

    const good = await api
      .post('/api/v1/suppressions/import')
      .set('content-type', 'text/csv; charset=utf-8')
      .send(`phone\n${a}\n"(512) 555-0100"\n${b}\n${a}\n`);
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ imported: 3, already_listed: 1 });
    const rows = await h.prisma.suppression.findMany({
      where: { accountId },
      orderBy: { phone: 'asc' },
    });
    expect(rows.map((r) => r.phone).sort()).toEqual([a, b, '+15125550100'].sort());
  });

  it("takes a spreadsheet's CSV export by its phone column, quoted commas and line breaks included", async () => {
    const { api, accountId } = await h.owner();
    const [a, b] = phones(2);
    const exported = [
      'Name,Phone Number,Note',
      `"Ruiz, Ana",${a},"called twice,`,
      'asked to stop"',
      '',
      `Bob,"${b}",`,
      'Carla,,no phone',
      'Dan,call me',
    ].join('\r\n');
    const bad = await api
      .post('/api/v1/suppressions/import')
      .set('content-type', 'text/csv')
      .send(exported);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'line 6', code: 'invalid', message: 'line 6: no phone in the phone column.' },
      { field: 'line 7', code: 'invalid', message: 'line 7: not a phone number.' },
    ]);
    expect(await h.prisma.suppression.count({ where: { accountId } })).toBe(0);

    const good = await api
      .post('/api/v1/suppressions/import')
      .set('content-type', 'text/csv')
      .send(exported.split('\r\n').slice(0, 5).join('\r\n'));
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ imported: 2, already_listed: 0 });
    const rows = await h.prisma.suppression.findMany({ where: { accountId } });
    expect(rows.map((r) => r.phone).sort()).toEqual([a, b].sort());

    const unclosed = await api
      .post('/api/v1/suppressions/import')
      .set('content-type', 'text/csv')
      .send(`phone\n${a}\n"${b}\n`);
    expect(unclosed.status).toBe(422);
    expect(unclosed.body.error.details).toEqual([
      {
        field: 'line 3',
        code: 'invalid',
        message: 'line 3: not valid CSV (a quoted field is not closed).',
      },
    ]);
  });

  it('takes CSV only on the import route, and a big body only there', async () => {
    const { api } = await h.owner();
    const csv = await api
      .post('/api/v1/suppressions')
      .set('content-type', 'text/csv')
      .send('+15125550100\n');
    expect(csv.status).toBe(415);
    const big = { phone: '+15125550100', pad: 'x'.repeat(300_000) };
    expect((await api.post('/api/v1/suppressions').send(big)).status).toBe(413);
    const latin1 = await api
      .post('/api/v1/suppressions/import')
      .set('content-type', 'text/csv; charset=latin1')
      .send('+15125550100\n');
    expect(latin1.status).toBe(415);
  });
});

describe('do-not-contact in the OpenAPI document', () => {
  it('documents the six operations, the CSV body, its 1 MiB limit and the 200 of a repeated add', async () => {
    const doc = (await h.anonymous.get('/api/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/suppressions'])).toEqual(['post', 'get']);
    expect(Object.keys(doc.paths['/suppressions/{phone}'])).toEqual(['get', 'delete']);
    const importOp = doc.paths['/suppressions/import'].post;
    expect(Object.keys(importOp.requestBody.content)).toEqual(['application/json', 'text/csv']);
    expect(importOp.requestBody.content['application/json'].schema.oneOf).toEqual([
      { $ref: '#/components/schemas/SuppressionImport' },
      { $ref: '#/components/schemas/SuppressionImport/properties/phones' },
    ]);
    expect(importOp.responses['413'].description).toContain('1 MiB');
    expect(doc.paths['/suppressions'].post.responses['200']).toBeDefined();
    expect(doc.paths['/suppressions'].post.responses['201']).toBeDefined();
    const list = doc.paths['/suppressions'].get.parameters.map((p: { name: string }) => p.name);
    expect(list).toEqual(['limit', 'cursor', 'reason', 'import_id']);
    const removals = doc.paths['/suppressions/removals'].get;
    expect(removals.parameters.map((p: { name: string }) => p.name)).toEqual([
      'limit',
      'cursor',
      'phone',
    ]);
    expect(removals.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SuppressionRemovalList',
    });
  });
});
