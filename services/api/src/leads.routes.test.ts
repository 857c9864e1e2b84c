import { leadDetailSchema, leadListSchema } from '@leadhook/contracts';
import { newId } from '@leadhook/db';
import { anEnrollment, useHarness } from '@leadhook/testkit';
import { type AuthedAgent, startHarness } from './testing/harness.js';
import { createDuplicateSubmission, createLead, type LeadOwner } from './testing/leads.factory.js';
import { bodyValidator } from './validation.js';

const isLeadList = bodyValidator(leadListSchema);
const isLeadDetail = bodyValidator(leadDetailSchema);

const h = useHarness(() => startHarness());

interface Owner extends LeadOwner {
  api: AuthedAgent;
  /** A second source of the same account. */
  otherSourceId: string;
}

/** An account with a playbook and two sources, made through the API. */
async function owner(): Promise<Owner> {
  const o = await h.owner();
  const sourceId = await h.newSource(o, { name: 'Acme' });
  return { ...o, sourceId, otherSourceId: await h.newSource(o, { name: 'Beta' }) };
}

/** Every id of the account's lead list, following next_cursor to the end. */
async function walk(api: AuthedAgent, query: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const path: string = `/api/v1/leads?${query}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await api.get(path);
    expect(res.status).toBe(200);
    expect(isLeadList(res.body).ok).toBe(true);
    ids.push(...res.body.data.map((lead: { id: string }) => lead.id));
    cursor = res.body.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 20);
  return { ids, pages };
}

describe('GET /leads', () => {
  it("lists the account's leads newest first, in pages that neither skip nor repeat", async () => {
    const a = await owner();
    const b = await owner();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push(await createLead(h.prisma, a));
    created.push(await createLead(h.prisma, { ...a, sourceId: a.otherSourceId }));
    created.push(await createLead(h.prisma, { ...a, sourceId: a.otherSourceId }));
    await createLead(h.prisma, b);

    const first = await a.api.get('/api/v1/leads?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.next_cursor).toBe(first.body.data[2].id);

    const { ids, pages } = await walk(a.api, 'limit=3');
    expect(pages).toBe(3);
    expect(ids).toEqual([...created].reverse());

    const all = await a.api.get('/api/v1/leads');
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.data).toHaveLength(7);
    expect(all.body.data[0]).toMatchObject({
      id: created[6],
      marketing_source: { id: a.otherSourceId, name: 'Beta' },
      playbook: { id: a.playbookId, name: 'Auto quotes' },
      opted_out: false,
      outcome: null,
      play: null,
    });
    // A list item is the lead without its timeline.
    expect(all.body.data[0]).not.toHaveProperty('activities');
  });

  it("filters by source_id; another account's source or none answers 404", async () => {
    const a = await owner();
    const b = await owner();
    const own = [await createLead(h.prisma, a)];
    const other = [
      await createLead(h.prisma, { ...a, sourceId: a.otherSourceId }),
      await createLead(h.prisma, { ...a, sourceId: a.otherSourceId }),
    ];
    await createLead(h.prisma, b);

    expect((await walk(a.api, `source_id=${a.otherSourceId}&limit=1`)).ids).toEqual(
      [...other].reverse(),
    );
    expect((await walk(a.api, `source_id=${a.sourceId}`)).ids).toEqual(own);
    const bodies = [];
    for (const sourceId of [b.sourceId, newId('source')]) {
      const res = await a.api.get(`/api/v1/leads?source_id=${sourceId}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found' });
      bodies.push(res.body);
    }
    // One answer for both: no oracle for another account's source ids.
    expect(bodies[0]).toEqual(bodies[1]);
    // b's own source filters b's leads.
    expect((await b.api.get(`/api/v1/leads?source_id=${b.sourceId}`)).body.data).toHaveLength(1);
    // A deleted source of one's own still filters its leads: they stay.
    expect((await a.api.delete(`/api/v1/marketing_sources/${a.sourceId}`)).status).toBe(204);
    expect((await walk(a.api, `source_id=${a.sourceId}`)).ids).toEqual(own);
  });

  it('refuses a bad limit like every list', async () => {
    const a = await owner();
    const res = await a.api.get('/api/v1/leads?limit=101');
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'limit' })]);
  });
});

describe('GET /leads filters', () => {
  /** The ids the filtered list answers, every page followed. */
  const ids = async (api: AuthedAgent, query: string) => (await walk(api, query)).ids;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

  /** A 422 validation_failed whose details name exactly these (field, code). */
  async function refused(api: AuthedAgent, query: string, expected: [string, string][]) {
    const res = await api.get(`/api/v1/leads?${query}`);
    expect([query, res.status, res.body.error?.code]).toEqual([query, 422, 'validation_failed']);
    expect([query, res.body.error.details]).toEqual([
      query,
      expected.map(([field, code]) => expect.objectContaining({ field, code })),
    ]);
  }

  it('filters by outcome; an unknown label is 422', async () => {
    const a = await owner();
    const b = await owner();
    const qualified = [
      await createLead(h.prisma, a, { outcome: 'qualified' }),
      await createLead(h.prisma, { ...a, sourceId: a.otherSourceId }, { outcome: 'qualified' }),
    ];
    const notInterested = await createLead(h.prisma, a, { outcome: 'not_interested' });
    await createLead(h.prisma, a);
    await createLead(h.prisma, b, { outcome: 'qualified' });

    expect(await ids(a.api, 'outcome=qualified')).toEqual([...qualified].reverse());
    expect(await ids(a.api, 'outcome=not_interested')).toEqual([notInterested]);
    expect(await ids(a.api, 'outcome=opted_out')).toEqual([]);
    await refused(a.api, 'outcome=promoted', [['outcome', 'invalid']]);
    // An event label is no outcome.
    await refused(a.api, 'outcome=message_delivered', [['outcome', 'invalid']]);
  });

  it('filters by the time received: days inclusive in UTC, or instants', async () => {
    const a = await owner();
    const at = async (iso: string) => createLead(h.prisma, a, { receivedAt: new Date(iso) });
    const before = await at('2026-02-28T23:59:59.999Z');
    const first = await at('2026-03-01T00:00:00.000Z');
    const middle = await at('2026-03-04T12:00:00.000Z');
    const last = await at('2026-03-07T23:59:59.999Z');
    const after = await at('2026-03-08T00:00:00.000Z');
    // Ids are newest-created first, not newest-received: sort by what the list does.
    const listed = (...leads: string[]) => [...leads].sort().reverse();

    expect(await ids(a.api, 'from=2026-03-01&to=2026-03-07')).toEqual(listed(first, middle, last));
    expect(await ids(a.api, 'from=2026-03-01')).toEqual(listed(first, middle, last, after));
    expect(await ids(a.api, 'to=2026-03-07')).toEqual(listed(before, first, middle, last));
    // Instants are inclusive at both ends; 14:00+02:00 is 12:00Z.
    expect(
      await ids(a.api, q({ from: '2026-03-04T14:00:00+02:00', to: '2026-03-07T23:59:59.999Z' })),
    ).toEqual(listed(middle, last));
    expect(await ids(a.api, q({ from: '2026-03-04T12:00:00.001Z', to: '2026-03-08' }))).toEqual(
      listed(last, after),
    );

    await refused(a.api, 'from=2026-03-08&to=2026-03-07', [['from', 'invalid']]);
    await refused(a.api, 'from=2026-02-30', [['from', 'invalid']]);
    await refused(a.api, 'from=yesterday', [['from', 'invalid']]);
    // No ceiling on the period, unlike stats: years of leads are listable.
    expect(await ids(a.api, 'from=2020-01-01&to=2026-12-31')).toHaveLength(5);
  });

  it('finds a phone written in any notation, in E.164; an undialable one is 422', async () => {
    const a = await owner();
    const b = await owner();
    const lead = await createLead(h.prisma, a, { phone: '+15125550100' });
    await createLead(h.prisma, a, { phone: '+15125550101' });
    await createLead(h.prisma, b, { phone: '+15125550100' });

    for (const phone of [
      '(512) 555-0100',
      '+15125550100',
      '512.555.0100',
      '+1 512 555 0100',
      ' 5125550100 ',
    ]) {
      expect([phone, await ids(a.api, q({ phone }))]).toEqual([phone, [lead]]);
    }
    expect(await ids(a.api, q({ phone: '(512) 555-0199' }))).toEqual([]);
    await refused(a.api, q({ phone: '555' }), [['phone', 'invalid']]);
    await refused(a.api, q({ phone: 'not a phone' }), [['phone', 'invalid']]);
    // Every problem in one answer.
    await refused(a.api, q({ phone: '555', from: '2026-02-30' }), [
      ['from', 'invalid'],
      ['phone', 'invalid'],
    ]);
  });

  it('finds an email whatever its case, and an external_id exactly', async () => {
    const a = await owner();
    const b = await owner();
    const foo = await createLead(h.prisma, a, { email: 'foo@example.com', externalId: 'acme-77' });
    const shouted = await createLead(h.prisma, a, { email: 'FOO@Example.COM' });
    await createLead(h.prisma, a, { email: 'bar@example.com', externalId: 'acme-78' });
    await createLead(h.prisma, b, { email: 'foo@example.com', externalId: 'acme-77' });

    expect(await ids(a.api, q({ email: 'Foo@Example.com' }))).toEqual([shouted, foo]);
    expect(await ids(a.api, q({ email: 'foo@example.com' }))).toEqual([shouted, foo]);
    expect(await ids(a.api, q({ email: 'foo@example.co' }))).toEqual([]);

    expect(await ids(a.api, q({ external_id: 'acme-77' }))).toEqual([foo]);
    expect(await ids(a.api, q({ external_id: 'ACME-77' }))).toEqual([]);
    expect(await ids(a.api, q({ external_id: 'acme-7' }))).toEqual([]);
    // Another account's lead with the same values is never listed.
    const theirs = await ids(b.api, q({ email: 'foo@example.com', external_id: 'acme-77' }));
    expect(theirs).toHaveLength(1);
    expect(theirs).not.toContain(foo);
  });

  it('combines filters and pages through the matches without skipping or repeating', async () => {
    const a = await owner();
    const b = await owner();
    const inMarch = new Date('2026-03-10T10:00:00.000Z');
    const matches: string[] = [];
    for (let i = 0; i < 5; i++) {
      matches.push(await createLead(h.prisma, a, { outcome: 'qualified', receivedAt: inMarch }));
      // Decoys, each failing one filter, interleaved with the matches.
      await createLead(h.prisma, a, { outcome: 'not_interested', receivedAt: inMarch });
      await createLead(h.prisma, a, {
        outcome: 'qualified',
        receivedAt: new Date('2026-04-01T00:00:00.000Z'),
      });
      await createLead(
        h.prisma,
        { ...a, sourceId: a.otherSourceId },
        { outcome: 'qualified', receivedAt: inMarch },
      );
      await createLead(h.prisma, b, { outcome: 'qualified', receivedAt: inMarch });
    }
    const query = `source_id=${a.sourceId}&outcome=qualified&from=2026-03-01&to=2026-03-31&limit=2`;
    const { ids: found, pages } = await walk(a.api, query);
    expect(pages).toBe(3);
    expect(found).toEqual([...matches].reverse());

    // A filter with another account's source is 404 whatever else is given.
    const foreign = await a.api.get(`/api/v1/leads?source_id=${b.sourceId}&outcome=qualified`);
    expect(foreign.status).toBe(404);
  });

  it('documents every filter', async () => {
    const doc = (await h.anonymous.get('/api/v1/openapi.json')).body;
    const op = doc.paths['/leads']?.get;
    expect(op.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      'query:limit',
      'query:cursor',
      'query:source_id',
      'query:outcome',
      'query:from',
      'query:to',
      'query:phone',
      'query:email',
      'query:external_id',
    ]);
    expect(Object.keys(op.responses)).toContain('422');
  });
});

describe('GET /leads/{id}', () => {
  it('shows the lead, its play, consent evidence, timeline (oldest first) and duplicates', async () => {
    const a = await owner();
    const receivedAt = new Date('2026-11-20T10:00:00.000Z');
    const leadId = await createLead(h.prisma, a, {
      externalId: 'acme-77',
      extra: { campaign: 'spring', score: 7, vip: true, note: null },
      consentIp: '203.0.113.9',
      consentUserAgent: 'Mozilla/5.0 (test)',
      receivedAt,
    });
    const playId = await anEnrollment(
      h.prisma,
      { leadId, playbookId: a.playbookId },
      { currentStep: 1, nextRunAt: new Date('2026-11-20T10:05:00.000Z') },
    );
    // Written out of order: the timeline sorts by occurred_at, not by insertion.
    const activity = (label: string, at: string) => ({
      id: newId('activity'),
      accountId: a.accountId,
      leadId,
      enrollmentId: playId,
      activityType: 'event',
      activityLabel: label,
      note: `note ${label}`,
      data: { at },
      occurredAt: new Date(at),
    });
    await h.prisma.activity.create({
      data: activity('first_message_sent', '2026-11-20T10:00:02.000Z'),
    });
    await h.prisma.activity.create({ data: activity('started', '2026-11-20T10:00:01.000Z') });
    await h.prisma.activity.create({
      data: activity('message_delivered', '2026-11-20T10:00:09.000Z'),
    });
    await createDuplicateSubmission(h.prisma, {
      accountId: a.accountId,
      sourceId: a.otherSourceId,
      leadId,
      externalId: 'beta-5',
      receivedAt: new Date('2026-11-21T08:00:00.000Z'),
    });
    await createDuplicateSubmission(h.prisma, {
      accountId: a.accountId,
      sourceId: a.sourceId,
      leadId,
      receivedAt: new Date('2026-11-20T12:00:00.000Z'),
    });

    const res = await a.api.get(`/api/v1/leads/${leadId}`);
    expect(res.status).toBe(200);
    const checked = isLeadDetail(res.body);
    expect(checked.ok ? [] : checked.details).toEqual([]);
    expect(res.body).toMatchObject({
      id: leadId,
      marketing_source: { id: a.sourceId, name: 'Acme' },
      playbook: { id: a.playbookId, name: 'Auto quotes' },
      external_id: 'acme-77',
      extra: { campaign: 'spring', score: 7, vip: true, note: null },
      canonical: { gender: 'female', marital_status: 'married', credit_rating: 'good' },
      opted_out: false,
      outcome: null,
      play: {
        id: playId,
        status: 'active',
        current_step: 1,
        next_run_at: '2026-11-20T10:05:00.000Z',
      },
    });
    expect(res.body.fields).toMatchObject({
      first_name: 'Ada',
      current_residence_state: 'TX',
      gender: 'Female ',
    });
    expect(res.body.consent).toEqual({
      tcpa_opt_in_token: res.body.fields.tcpa_opt_in_token,
      provider: null,
      tcpa_opt_in_url: 'https://forms.example.com/quote',
      ip: '203.0.113.9',
      user_agent: 'Mozilla/5.0 (test)',
      received_at: '2026-11-20T10:00:00.000Z',
    });
    expect(res.body.consent.tcpa_opt_in_token).toMatch(/^tok_[0-9a-f]{12}$/);

    expect(res.body.activities.map((a: { activity_label: string }) => a.activity_label)).toEqual([
      'started',
      'first_message_sent',
      'message_delivered',
    ]);
    expect(res.body.activities[0]).toEqual({
      id: expect.stringMatching(/^act_/),
      lead_id: leadId,
      activity_type: 'event',
      activity_label: 'started',
      activity_note: 'note started',
      data: { at: '2026-11-20T10:00:01.000Z' },
      occurred_at: '2026-11-20T10:00:01.000Z',
    });

    // Only the duplicates, oldest first: the accepted submission is the lead itself.
    expect(res.body.duplicates).toEqual([
      {
        marketing_source: { id: a.sourceId, name: 'Acme' },
        external_id: null,
        received_at: '2026-11-20T12:00:00.000Z',
      },
      {
        marketing_source: { id: a.otherSourceId, name: 'Beta' },
        external_id: 'beta-5',
        received_at: '2026-11-21T08:00:00.000Z',
      },
    ]);
  });

  it('a new lead has an empty timeline, no duplicates and no play', async () => {
    const a = await owner();
    const leadId = await createLead(h.prisma, a);
    const res = await a.api.get(`/api/v1/leads/${leadId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ activities: [], duplicates: [], play: null });
    expect(res.body.consent).toMatchObject({ ip: null, user_agent: null });
  });

  it('shows the consent provider stored with the lead, in the lead and in the list', async () => {
    const a = await owner();
    const tokens = {
      trustedform: 'https://cert.trustedform.com/eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947',
      jornaya: 'a1b2c3d4-e5f6-4789-abcd-ef0123456789',
    };
    const ids = {
      trustedform: await createLead(h.prisma, a, { tcpaOptInToken: tokens.trustedform }),
      jornaya: await createLead(h.prisma, a, { tcpaOptInToken: tokens.jornaya }),
      none: await createLead(h.prisma, a, { tcpaOptInToken: 'consent-123' }),
      // The stored provider, not the token's shape now: rows whose column says
      // otherwise than the token would.
      storedJornaya: await createLead(h.prisma, a, {
        tcpaOptInToken: 'consent-123',
        consentProvider: 'jornaya',
      }),
      storedNone: await createLead(h.prisma, a, {
        tcpaOptInToken: tokens.trustedform,
        consentProvider: null,
      }),
    };
    const expected = {
      trustedform: 'trustedform',
      jornaya: 'jornaya',
      none: null,
      storedJornaya: 'jornaya',
      storedNone: null,
    };
    const list = await a.api.get('/api/v1/leads');
    expect(list.status).toBe(200);
    for (const [kind, id] of Object.entries(ids) as [keyof typeof ids, string][]) {
      const res = await a.api.get(`/api/v1/leads/${id}`);
      expect(res.body.consent.provider).toBe(expected[kind]);
      const item = list.body.data.find((lead: { id: string }) => lead.id === id);
      expect(item.consent.provider).toBe(expected[kind]);
    }
  });

  it("answers 404 for another account's lead and for an unknown id", async () => {
    const a = await owner();
    const b = await owner();
    const leadId = await createLead(h.prisma, a);
    for (const res of [
      await b.api.get(`/api/v1/leads/${leadId}`),
      await a.api.get(`/api/v1/leads/${newId('lead')}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: 'not_found', message: 'No such lead.', details: [] });
    }
    expect((await a.api.get(`/api/v1/leads/${leadId}`)).status).toBe(200);
  });
});
