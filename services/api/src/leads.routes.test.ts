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
