import { activityCatalogSchema, activityReportSchema } from '@leadhook/contracts';
import { newId } from '@leadhook/db';
import { liveJob } from '@leadhook/queue';
import { anEnrollment, useHarness, waitFor } from '@leadhook/testkit';
import type request from 'supertest';
import { type AuthedAgent, startHarness } from './testing/harness.js';
import { createLead, type LeadOwner } from './testing/leads.factory.js';
import { bodyValidator } from './validation.js';

const isCatalog = bodyValidator(activityCatalogSchema);
const isReport = bodyValidator(activityReportSchema);

const h = useHarness(() => startHarness());

async function owner(): Promise<LeadOwner & { api: AuthedAgent }> {
  const o = await h.owner();
  return { ...o, sourceId: await h.newSource(o) };
}

/** A lead of a new account, enrolled (an active play) unless told otherwise. */
async function leadOf(options: { enrolled?: boolean } = {}) {
  const o = await owner();
  const leadId = await createLead(h.prisma, o);
  const playId =
    options.enrolled === false
      ? null
      : await anEnrollment(h.prisma, { leadId, playbookId: o.playbookId });
  /** Reports an activity of the lead through the API. */
  const report = (body: object) => o.api.post(`/api/v1/leads/${leadId}/activities`).send(body);
  return { ...o, leadId, playId, report };
}

/** Reports `body` and expects it recorded: 201 with a report (the schema's) that carries it. */
async function reportRecorded(
  report: (body: object) => PromiseLike<request.Response>,
  body: object,
) {
  const res = await report(body);
  expect(res.status).toBe(201);
  expect(isReport(res.body).ok).toBe(true);
  expect(res.body).toMatchObject(body);
  return res;
}

interface TimelineEntry {
  id: string;
  activity_type: string;
  activity_label: string;
}

async function timelineOf(api: AuthedAgent, leadId: string): Promise<TimelineEntry[]> {
  const res = await api.get(`/api/v1/leads/${leadId}`);
  expect(res.status).toBe(200);
  return res.body.activities;
}

const labels = (entries: readonly { activity_label: string }[]) =>
  entries.map((e) => e.activity_label);

describe('GET /activity_catalog', () => {
  // Written from docs/api.md ("Activities"), not derived from ACTIVITY_CATALOG: the
  // test fails if the catalog drops, adds or regroups a label the docs name.
  const DOCUMENTED_EVENTS: Record<string, readonly string[]> = {
    lifecycle: ['started', 'completed', 'stopped', 'reengagement_sent'],
    messaging: [
      'first_message_sent',
      'message_sent',
      'message_delivered',
      'message_failed',
      'message_received',
      'double_opted_in',
      'interested',
      'talk_to_human',
      'contact_deferred',
    ],
    calls: ['call_attempted', 'call_answered', 'voicemail_left'],
    party_line: [
      'party_line_lead_attempted',
      'party_line_lead_unsuccessful',
      'party_line_lead_answered',
      'party_line_rep_attempted',
      'party_line_rep_unsuccessful',
      'party_line_lead_initiated_call',
      'party_line_lead_initiated_call_unsuccessful',
    ],
    copilot: ['copilot_paused', 'copilot_restarted'],
  };
  const DOCUMENTED_OUTCOMES = [
    'qualified',
    'unqualified',
    'interested',
    'not_interested',
    'callback_requested',
    'party_line_completed',
    'opted_out',
    'undeliverable',
    'unreachable',
    'do_not_contact',
  ];

  it('lists every event and outcome label of the contract with its group and a meaning', async () => {
    const { api } = await owner();
    const res = await api.get('/api/v1/activity_catalog');
    expect(res.status).toBe(200);
    expect(isCatalog(res.body).ok).toBe(true);
    expect(res.body.next_cursor).toBeNull();

    const expected = [
      ...Object.entries(DOCUMENTED_EVENTS).flatMap(([group, names]) =>
        names.map((label) => `event/${group}/${label}`),
      ),
      ...DOCUMENTED_OUTCOMES.map((label) => `outcome/outcome/${label}`),
      // The test delivery's label, documented but reserved.
      'event/reserved/test',
    ].sort();
    expect(expected).toHaveLength(36);
    const entries: { label: string; type: string; group: string; meaning: string }[] =
      res.body.data;
    expect(entries.map((e) => `${e.type}/${e.group}/${e.label}`).sort()).toEqual(expected);
    for (const entry of entries) expect(entry.meaning.length).toBeGreaterThan(10);
    // interested is both an event and an outcome, with different meanings.
    const interested = entries.filter((e) => e.label === 'interested');
    expect(interested.map((e) => e.type).sort()).toEqual(['event', 'outcome']);
    expect(entries.find((e) => e.label === 'test')?.meaning).toMatch(
      /POST \/subscriptions\/\{id\}\/test.*Cannot be selected or reported/,
    );
  });

  it('needs the API key', async () => {
    const res = await h.anonymous.get('/api/v1/activity_catalog');
    expect(res.status).toBe(401);
  });
});

describe('POST /leads/{id}/activities', () => {
  it('records an event (201) that then shows on the timeline and is announced', async () => {
    const { api, leadId, playId, report } = await leadOf();
    const res = await report({
      activity_type: 'event',
      activity_label: 'call_answered',
      data: { seconds: 42 },
    });
    expect(res.status).toBe(201);
    expect(isReport(res.body).ok).toBe(true);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^act_[0-9a-z]{26}$/),
      lead_id: leadId,
      activity_type: 'event',
      activity_label: 'call_answered',
      activity_note: 'The lead answered a call.',
      data: { seconds: 42 },
      occurred_at: expect.any(String),
      caused: [],
    });
    const { caused: _caused, ...activity } = res.body;
    expect(await timelineOf(api, leadId)).toEqual([activity]);
    // Same path as the worker's: tied to the play, an outbox row, an activity job.
    const row = await h.prisma.activity.findUniqueOrThrow({ where: { id: activity.id } });
    expect(row.enrollmentId).toBe(playId);
    expect(
      await h.prisma.outbox.count({ where: { payload: { equals: { activity_id: activity.id } } } }),
    ).toBe(1);
    const job = await waitFor(() =>
      liveJob(h.queues.get('activity'), 'activity', { activity_id: activity.id }),
    );
    expect(job.data).toEqual({ activity_id: activity.id });
  });

  it('data is optional; `interested` is accepted as an event without ending the play', async () => {
    const { api, leadId, report } = await leadOf();
    const res = await report({ activity_type: 'event', activity_label: 'interested' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ activity_type: 'event', data: {}, caused: [] });
    const lead = (await api.get(`/api/v1/leads/${leadId}`)).body;
    expect(lead).toMatchObject({ outcome: null, play: { status: 'active' } });
  });

  it('refuses an unknown label with 422 naming it and the allowed labels', async () => {
    const { api, leadId, report } = await leadOf();
    const res = await report({ activity_type: 'event', activity_label: 'teleported' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toContain('"teleported" is not a label of the activity catalog');
    expect(res.body.error.message).toContain('call_answered');
    expect(res.body.error.message).not.toContain('unqualified');
    expect(res.body.error.details).toEqual([
      { field: 'activity_label', code: 'unknown_label', message: res.body.error.message },
    ]);
    expect(await timelineOf(api, leadId)).toEqual([]);
  });

  it('refuses the reserved test label: only the test delivery carries it', async () => {
    const { api, leadId, report } = await leadOf();
    const res = await report({ activity_type: 'event', activity_label: 'test' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      {
        field: 'activity_label',
        code: 'reserved_label',
        message: expect.stringContaining('"test" is reserved'),
      },
    ]);
    expect(await timelineOf(api, leadId)).toEqual([]);
  });

  it.each([
    ['event', 'qualified', 'outcome'],
    ['outcome', 'started', 'event'],
  ])('refuses type %s with label %s (422: it is an %s label)', async (type, label, right) => {
    const { api, leadId, report } = await leadOf();
    const res = await report({ activity_type: type, activity_label: label });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain(
      `"${label}" is an ${right} label, not an ${type} label`,
    );
    expect(res.body.error.message).toContain(`send activity_type "${right}"`);
    expect(res.body.error.details).toEqual([expect.objectContaining({ code: 'type_mismatch' })]);
    expect(await timelineOf(api, leadId)).toEqual([]);
    expect((await api.get(`/api/v1/leads/${leadId}`)).body.outcome).toBeNull();
  });

  it.each([
    [
      { activity_type: 'event', activity_label: 'call_answered', note: 'x' },
      'note',
      'unknown_field',
    ],
    [{ activity_type: 'milestone', activity_label: 'started' }, 'activity_type', 'invalid'],
    [{ activity_type: 'event' }, 'activity_label', 'required'],
    [{ activity_type: 'event', activity_label: 'call_answered', data: [1] }, 'data', 'invalid'],
    [{ activity_type: 'event', activity_label: 'message_received' }, 'data.body', 'required'],
    [
      {
        activity_type: 'event',
        activity_label: 'call_answered',
        data: { blob: 'x'.repeat(17_000) },
      },
      'data',
      'too_long',
    ],
  ])('refuses the body %j (422 %s %s)', async (body, field, code) => {
    const { api, leadId, report } = await leadOf();
    const res = await report(body);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field, code })]);
    expect(await timelineOf(api, leadId)).toEqual([]);
  });

  it("answers 404 for another account's lead and records nothing", async () => {
    const a = await leadOf();
    const b = await owner();
    for (const body of [
      { activity_type: 'event', activity_label: 'call_answered' },
      { activity_type: 'outcome', activity_label: 'qualified' },
    ]) {
      const res = await b.api.post(`/api/v1/leads/${a.leadId}/activities`).send(body);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: 'not_found', message: 'No such lead.', details: [] });
    }
    const unknown = await a.api
      .post(`/api/v1/leads/${newId('lead')}/activities`)
      .send({ activity_type: 'event', activity_label: 'call_answered' });
    expect(unknown.status).toBe(404);
    const lead = (await a.api.get(`/api/v1/leads/${a.leadId}`)).body;
    expect(lead).toMatchObject({ activities: [], outcome: null, play: { status: 'active' } });
  });

  it('an outcome stops the play (stopped in caused); a second outcome is 409 naming the first', async () => {
    const { api, leadId, report } = await leadOf();
    const first = await reportRecorded(report, {
      activity_type: 'outcome',
      activity_label: 'qualified',
      data: { rep: 'kim' },
    });
    expect(first.body.caused).toEqual([
      expect.objectContaining({
        activity_type: 'event',
        activity_label: 'stopped',
        data: { reason: 'qualified' },
      }),
    ]);

    const second = await report({ activity_type: 'outcome', activity_label: 'not_interested' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('outcome_exists');
    expect(second.body.error.message).toContain('"qualified"');

    const lead = (await api.get(`/api/v1/leads/${leadId}`)).body;
    expect(lead).toMatchObject({ outcome: 'qualified', play: { status: 'stopped' } });
    expect(labels(lead.activities)).toEqual(['stopped', 'qualified']);
    expect(lead.activities[1].id).toBe(first.body.id);
    expect(lead.activities[0].id).toBe(first.body.caused[0].id);
  });

  it('a STOP reply records message_received, then stopped and opted_out, and opts the lead out', async () => {
    const { api, leadId, report } = await leadOf();
    const res = await reportRecorded(report, {
      activity_type: 'event',
      activity_label: 'message_received',
      data: { body: ' Stop ' },
    });
    expect(
      res.body.caused.map((a: TimelineEntry) => `${a.activity_type}:${a.activity_label}`),
    ).toEqual(['event:stopped', 'outcome:opted_out']);

    const lead = (await api.get(`/api/v1/leads/${leadId}`)).body;
    expect(lead).toMatchObject({
      opted_out: true,
      outcome: 'opted_out',
      play: { status: 'stopped', next_run_at: null },
    });
    expect(labels(lead.activities)).toEqual(['message_received', 'stopped', 'opted_out']);
    expect(lead.activities.map((a: TimelineEntry) => a.id)).toEqual([
      res.body.id,
      ...res.body.caused.map((a: TimelineEntry) => a.id),
    ]);
  });

  it('an ordinary reply is only recorded', async () => {
    const { api, leadId, report } = await leadOf();
    const res = await report({
      activity_type: 'event',
      activity_label: 'message_received',
      data: { body: 'call me at 5?' },
    });
    expect(res.status).toBe(201);
    expect(res.body.caused).toEqual([]);
    const lead = (await api.get(`/api/v1/leads/${leadId}`)).body;
    expect(lead).toMatchObject({ opted_out: false, outcome: null, play: { status: 'active' } });
    expect(labels(lead.activities)).toEqual(['message_received']);
  });
});
