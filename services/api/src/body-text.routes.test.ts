import { newId } from '@leadhook/db';
import { type AuthedAgent, type Harness, playbookBody, startHarness } from './testing/harness.js';
import { createLead } from './testing/leads.factory.js';

/**
 * Text PostgreSQL cannot store (NUL, an unpaired surrogate), bodies nested
 * deeper than the bound, and charsets other than UTF-8: each a 4xx of its own,
 * never a 500, and nothing stored (docs/api.md, "Conventions").
 */

let h: Harness;
let api: AuthedAgent;
let leadId: string;
beforeAll(async () => {
  h = await startHarness();
  const owner = await h.owner();
  api = owner.api;
  leadId = await createLead(h.prisma, { ...owner, sourceId: await h.newSource(owner) });
});
afterAll(async () => {
  await h.close();
});

/** JSON text of an activity whose data is `data` (JSON text, so any depth and any escape). */
function activity(label: string, data: string): string {
  const type = label === 'message_received' || label === 'call_answered' ? 'event' : 'outcome';
  return `{"activity_type":"${type}","activity_label":"${label}","data":${data}}`;
}

/** POSTs `text` (JSON text) as an activity of the lead. */
function postActivity(text: string) {
  return api
    .post(`/api/v1/leads/${leadId}/activities`)
    .set('Content-Type', 'application/json')
    .send(text);
}

async function activityCount(): Promise<number> {
  return h.prisma.activity.count({ where: { leadId } });
}

describe('POST /leads/{id}/activities', () => {
  it.each([
    ['a NUL in data.body', activity('message_received', '{"body":"STOP\\u0000"}'), 'data.body'],
    [
      'a lone surrogate in data.body',
      activity('message_received', '{"body":"hi \\ud800"}'),
      'data.body',
    ],
    ['a NUL in a name in data', activity('call_answered', '{"a\\u0000":1}'), 'data.a\u0000'],
  ])('%s is 422 invalid, and nothing is recorded', async (_case, text, field) => {
    const before = await activityCount();
    const res = await postActivity(text);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field, code: 'invalid', message: expect.stringMatching(/cannot be stored/) },
    ]);
    expect(await activityCount()).toBe(before);
  });

  it('data nested 5,000 levels is 422 too_deep; data with 30 levels inside it is accepted', async () => {
    const before = await activityCount();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await postActivity(activity('call_answered', deep));
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      {
        field: expect.stringMatching(/^data(\.a)+$/),
        code: 'too_deep',
        message: expect.any(String),
      },
    ]);
    expect(await activityCount()).toBe(before);

    // data (level 2 of the body) and 30 levels inside it: the 32-level bound.
    const deepest = `${'{"a":'.repeat(31)}1${'}'.repeat(31)}`;
    const ok = await postActivity(activity('call_answered', deepest));
    expect(ok.status).toBe(201);
    const tooDeep = await postActivity(activity('call_answered', `{"b":${deepest}}`));
    expect(tooDeep.status).toBe(422);
  });
});

describe('data stored before the bound', () => {
  it('an activity whose data nests deeper than the bound is still shown on the timeline', async () => {
    let data: Record<string, unknown> = { a: 'x' };
    for (let i = 0; i < 40; i++) data = { a: data };
    const lead = await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
    await h.prisma.activity.create({
      data: {
        id: newId('activity'),
        accountId: lead.accountId,
        leadId,
        activityType: 'event',
        activityLabel: 'call_answered',
        note: 'The lead answered a call.',
        data: JSON.parse(JSON.stringify(data)),
        occurredAt: new Date(),
      },
    });
    const res = await api.get(`/api/v1/leads/${leadId}`);
    expect(res.status).toBe(200);
    expect(res.body.activities.map((a: { data: unknown }) => a.data)).toContainEqual(data);
  });
});

describe('account and playbook names', () => {
  it.each(['Acme\u0000', 'Acme \ud800'])('PATCH /account with the name %j is 422', async (name) => {
    const before = (await api.get('/api/v1/account')).body.name;
    const res = await api.patch('/api/v1/account').send({ name });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'name', code: 'invalid', message: expect.stringMatching(/cannot be stored/) },
    ]);
    expect((await api.get('/api/v1/account')).body.name).toBe(before);
  });

  it('a NUL in a playbook step template is 422, and no playbook is created', async () => {
    const before = await h.prisma.playbook.count();
    const res = await api.post('/api/v1/playbooks').send(
      playbookBody({
        steps: [{ type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}\u0000' }],
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'steps[0].template', code: 'invalid', message: expect.any(String) },
    ]);
    expect(await h.prisma.playbook.count()).toBe(before);
  });
});

describe('path parameters', () => {
  it.each([
    ['get', '/api/v1/leads/lead_%00'],
    ['get', '/api/v1/playbooks/pb_%00x'],
    ['patch', '/api/v1/marketing_sources/src_%00'],
    ['post', '/api/v1/leads/%00/activities'],
  ] as const)('%s %s with a NUL is 404', async (verb, path) => {
    const res = await api[verb](path).send({});
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('charsets', () => {
  it.each([
    'application/json; charset=utf-16',
    'application/json; charset=utf-7',
    'application/json; charset=latin1',
  ])('a body as %s is 415, and nothing is created', async (type) => {
    const before = await h.prisma.playbook.count();
    const res = await api
      .post('/api/v1/playbooks')
      .set('Content-Type', type)
      .send(JSON.stringify(playbookBody({ name: '+ADw-script+AD4-' })));
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
    expect(await h.prisma.playbook.count()).toBe(before);
  });

  it.each(['application/json; charset=UTF-8', 'application/json; charset=utf-8'])(
    'a body as %s is read',
    async (type) => {
      const res = await api
        .post('/api/v1/playbooks')
        .set('Content-Type', type)
        .send(JSON.stringify(playbookBody()));
      expect(res.status).toBe(201);
    },
  );
});
