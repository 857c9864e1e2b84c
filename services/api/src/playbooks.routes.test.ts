import { errorEnvelopeSchema, playbookSchema } from '@leadhook/contracts';
import { useHarness } from '@leadhook/testkit';
import { playbookBody, sourceBody, startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isPlaybook = bodyValidator(playbookSchema);
const isError = bodyValidator(errorEnvelopeSchema);

const h = useHarness(() => startHarness());

async function owner() {
  const { api_key, account_id } = await h.newAccount();
  return { api: h.as(api_key), accountId: account_id };
}

describe('playbooks CRUD', () => {
  it('creates (201), reads, updates and soft-deletes (204, then 404)', async () => {
    const { api } = await owner();
    const created = await api.post('/api/v1/playbooks').send(playbookBody());
    expect(created.status).toBe(201);
    expect(isPlaybook(created.body).ok).toBe(true);
    expect(created.body.id).toMatch(/^pb_[0-9a-z]{26}$/);
    expect(created.body.steps).toEqual(playbookBody().steps);
    expect(Date.parse(created.body.created_at)).not.toBeNaN();
    const id: string = created.body.id;

    const read = await api.get(`/api/v1/playbooks/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const steps = [{ type: 'call', delay_seconds: 60, template: 'Ask for {{ first_name }}.' }];
    const updated = await api.patch(`/api/v1/playbooks/${id}`).send({ name: 'Renamed', steps });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Renamed', steps });
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(created.body.updated_at),
    );
    const renamedOnly = await api.patch(`/api/v1/playbooks/${id}`).send({ name: 'Again' });
    expect(renamedOnly.body.steps).toEqual(steps);

    const deleted = await api.delete(`/api/v1/playbooks/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const res of [
      await api.get(`/api/v1/playbooks/${id}`),
      await api.patch(`/api/v1/playbooks/${id}`).send({ name: 'x' }),
      await api.delete(`/api/v1/playbooks/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const list = await api.get('/api/v1/playbooks');
    expect(list.body.data.map((p: { id: string }) => p.id)).not.toContain(id);
    // Soft: the row stays for the leads that ran it.
    const row = await h.prisma.playbook.findUnique({ where: { id } });
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  it('accepts a playbook with no steps, and steps omitted', async () => {
    const { api } = await owner();
    const empty = await api.post('/api/v1/playbooks').send({ name: 'Manual', steps: [] });
    expect(empty.status).toBe(201);
    expect(empty.body.steps).toEqual([]);
    const omitted = await api.post('/api/v1/playbooks').send({ name: 'Manual too' });
    expect(omitted.status).toBe(201);
    expect(omitted.body.steps).toEqual([]);
  });

  it("answers 404 for another account's playbook on every operation", async () => {
    const a = await owner();
    const b = await owner();
    const id: string = (await a.api.post('/api/v1/playbooks').send(playbookBody())).body.id;
    for (const res of [
      await b.api.get(`/api/v1/playbooks/${id}`),
      await b.api.patch(`/api/v1/playbooks/${id}`).send({ name: 'stolen' }),
      await b.api.delete(`/api/v1/playbooks/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(isError(res.body).ok).toBe(true);
    }
    expect((await b.api.get('/api/v1/playbooks')).body.data).toEqual([]);
    const untouched = await a.api.get(`/api/v1/playbooks/${id}`);
    expect(untouched.body.name).toBe(playbookBody().name);
  });
});

describe('playbook validation', () => {
  const step = (s: Record<string, unknown>) => ({ name: 'P', steps: [s] });
  it.each([
    [{}, 'name', 'required'],
    [{ name: '' }, 'name', 'invalid'],
    [{ name: 'P', steps: 'sms' }, 'steps', 'invalid'],
    [step({ type: 'email', delay_seconds: 0, template: 'x' }), 'steps[0].type', 'invalid'],
    [step({ delay_seconds: 0, template: 'x' }), 'steps[0].type', 'required'],
    [step({ type: 'call' }), 'steps[0].delay_seconds', 'required'],
    [step({ type: 'call', delay_seconds: -1 }), 'steps[0].delay_seconds', 'invalid'],
    [step({ type: 'call', delay_seconds: 1.5 }), 'steps[0].delay_seconds', 'invalid'],
    [step({ type: 'call', delay_seconds: '5' }), 'steps[0].delay_seconds', 'invalid'],
    [step({ type: 'sms', delay_seconds: 0 }), 'steps[0].template', 'required'],
    [step({ type: 'sms', delay_seconds: 0, template: ' ' }), 'steps[0].template', 'invalid'],
    [step({ type: 'call', delay_seconds: 0, voice: 'x' }), 'steps[0].voice', 'unknown_field'],
    [{ name: 'P', owner: 'me' }, 'owner', 'unknown_field'],
    [{ name: 'P', id: 'pb_x' }, 'id', 'read_only'],
  ])('refuses %j', async (body, field, code) => {
    const { api } = await owner();
    const res = await api.post('/api/v1/playbooks').send(body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details).toEqual([{ field, code, message: expect.any(String) }]);
  });

  it('names an unknown placeholder and its step index; known ones pass', async () => {
    const { api } = await owner();
    const res = await api.post('/api/v1/playbooks').send({
      name: 'P',
      steps: [
        { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}} ({{external_id}})' },
        { type: 'call', delay_seconds: 10, template: 'Ask {{ first_name }} about {{ pet_name }}' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      {
        field: 'steps[1].template',
        code: 'unknown_placeholder',
        message: expect.stringContaining('{{pet_name}}'),
      },
    ]);
    expect(res.body.error.details[0].message).toContain('step 1');
  });

  it('accepts every placeholder the documented template description names, and refuses another', async () => {
    const { api } = await owner();
    const doc = (await api.get('/api/v1/openapi.json')).body;
    const description: string =
      doc.components.schemas.PlaybookCreate.properties.steps.items.properties.template.description;
    const listed = /The names are: ([^.]*)\./.exec(description)?.[1] ?? '';
    const names = [...listed.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? '');
    // The 16 fields a seller must send, and external_id.
    expect(names).toHaveLength(17);
    expect(names).toEqual(expect.arrayContaining(['first_name', 'tcpa_opt_in_url', 'external_id']));

    const template = names.map((name) => `{{${name}}}`).join(' ');
    const ok = await api
      .post('/api/v1/playbooks')
      .send({ name: 'All fields', steps: [{ type: 'sms', delay_seconds: 0, template }] });
    expect(ok.status).toBe(201);

    // An extra field a seller may send is not among them: a clear 422.
    const refused = await api.post('/api/v1/playbooks').send({
      name: 'Extra',
      steps: [{ type: 'sms', delay_seconds: 0, template: 'Hi from {{utm_source}}' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      {
        field: 'steps[0].template',
        code: 'unknown_placeholder',
        message: `Unknown placeholder {{utm_source}} in the template of step 0; known: ${names.join(', ')}.`,
      },
    ]);
    expect(description).toContain('unknown_placeholder');
  });

  it.each(['Hi {{first_name', 'Hi {first_name}}', 'Hi {{first_name}} }}'])(
    'refuses the stray braces of %j',
    async (template) => {
      const { api } = await owner();
      const res = await api
        .post('/api/v1/playbooks')
        .send({ name: 'P', steps: [{ type: 'sms', delay_seconds: 0, template }] });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([
        expect.objectContaining({ field: 'steps[0].template', code: 'invalid_template' }),
      ]);
    },
  );

  it('lists every problem of the body, placeholders included', async () => {
    const { api } = await owner();
    const res = await api.post('/api/v1/playbooks').send({
      steps: [
        { type: 'sms', delay_seconds: -5, template: '{{nope}} {{also_nope}}' },
        { type: 'fax', delay_seconds: 0 },
      ],
      extra: true,
    });
    expect(res.status).toBe(422);
    const problems = res.body.error.details.map((d: { field: string; code: string }) => [
      d.field,
      d.code,
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['name', 'required'],
        ['extra', 'unknown_field'],
        ['steps[0].delay_seconds', 'invalid'],
        ['steps[0].template', 'unknown_placeholder'],
        ['steps[1].type', 'invalid'],
      ]),
    );
    const placeholders = res.body.error.details.filter(
      (d: { code: string }) => d.code === 'unknown_placeholder',
    );
    expect(placeholders).toHaveLength(2);
  });

  it('validates PATCH bodies with the same rules', async () => {
    const { api } = await owner();
    const id: string = (await api.post('/api/v1/playbooks').send(playbookBody())).body.id;
    const res = await api
      .patch(`/api/v1/playbooks/${id}`)
      .send({ steps: [{ type: 'sms', delay_seconds: 0, template: '{{ssn}}' }] });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toMatchObject({
      field: 'steps[0].template',
      code: 'unknown_placeholder',
    });
    expect((await api.get(`/api/v1/playbooks/${id}`)).body.steps).toEqual(playbookBody().steps);
  });
});

describe('deleting a playbook in use', () => {
  it('answers 409 playbook_in_use while a live source uses it, and 204 once none does', async () => {
    const { api } = await owner();
    const playbookId: string = (await api.post('/api/v1/playbooks').send(playbookBody())).body.id;
    const sourceId: string = (
      await api.post('/api/v1/marketing_sources').send(sourceBody(playbookId))
    ).body.id;

    const refused = await api.delete(`/api/v1/playbooks/${playbookId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('playbook_in_use');
    expect(refused.body.error.details[0].message).toContain(sourceId);
    expect((await api.get(`/api/v1/playbooks/${playbookId}`)).status).toBe(200);

    expect((await api.delete(`/api/v1/marketing_sources/${sourceId}`)).status).toBe(204);
    expect((await api.delete(`/api/v1/playbooks/${playbookId}`)).status).toBe(204);
  });
});

describe('GET /playbooks pagination', () => {
  it('walks every playbook once, newest first, across pages', async () => {
    const { api } = await owner();
    const created: string[] = [];
    for (let i = 0; i < 23; i++) {
      created.push((await api.post('/api/v1/playbooks').send({ name: `P${i}` })).body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: Record<string, string> = { limit: '10', ...(cursor ? { cursor } : {}) };
      const res = await api.get('/api/v1/playbooks').query(query);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'next_cursor']);
      seen.push(...res.body.data.map((p: { id: string }) => p.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...created].reverse());
    expect(new Set(seen).size).toBe(23);
  });

  it('defaults to 20 and bounds limit to 1–100', async () => {
    const { api } = await owner();
    for (let i = 0; i < 21; i++) await api.post('/api/v1/playbooks').send({ name: `P${i}` });
    const first = await api.get('/api/v1/playbooks');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.next_cursor).toBe(first.body.data[19].id);
    const all = await api.get('/api/v1/playbooks?limit=100');
    expect(all.body.data).toHaveLength(21);
    expect(all.body.next_cursor).toBeNull();
    for (const limit of ['0', '101', 'ten', '2.5']) {
      const res = await api.get(`/api/v1/playbooks?limit=${limit}`);
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe('limit');
    }
  });
});
