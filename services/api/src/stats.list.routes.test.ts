import { OUTCOME_LABELS, sourceStatsListSchema } from '@leadhook/contracts';
import { useHarness } from '@leadhook/testkit';
import type { AuthedAgent } from './testing/harness.js';
import { startHarness } from './testing/harness.js';
import { createOutcome, createStatsOwner, createSubmission } from './testing/stats.factory.js';
import { bodyValidator } from './validation.js';

const isList = bodyValidator(sourceStatsListSchema);

const h = useHarness(() => startHarness());

const zeroOutcomes = () => Object.fromEntries(OUTCOME_LABELS.map((l) => [l, 0]));

async function list(api: AuthedAgent, query: string) {
  const res = await api.get(`/api/v1/stats/sources?${query}`);
  expect([query, res.status]).toEqual([query, 200]);
  const checked = isList(res.body);
  expect(checked.ok ? [] : checked.details).toEqual([]);
  return res.body as { data: { id: string }[]; next_cursor: string | null };
}

describe('GET /stats/sources', () => {
  it('lists every source of the account with its own figures, zeros included, in one answer', async () => {
    const { api, source, newSource } = await createStatsOwner(h);
    const p = h.prisma;
    const second = await newSource();
    const idle = await newSource();
    // Each row shows its own source's columns, whatever they are now.
    const patched = await api
      .patch(`/api/v1/marketing_sources/${idle.sourceId}`)
      .send({ name: 'Idle', source_type: 'web_form', status: 'paused' });
    expect(patched.status).toBe(200);
    // The first source: inside the range, and just outside on both sides.
    await createSubmission(p, source, 'accepted', '2026-02-28T23:59:59.999Z');
    await createSubmission(p, source, 'accepted', '2026-03-01T00:00:00.000Z');
    await createSubmission(p, source, 'accepted', '2026-03-03T08:00:00.000Z');
    await createSubmission(p, source, 'duplicate', '2026-03-03T09:00:00.000Z');
    await createSubmission(p, source, 'rejected', '2026-03-05T10:00:00.000Z', [
      { field: 'phone', code: 'invalid' },
      { field: 'email', code: 'required' },
    ]);
    await createSubmission(p, source, 'rejected', '2026-03-07T23:59:59.999Z', [
      { field: 'phone', code: 'invalid' },
    ]);
    await createSubmission(p, source, 'rejected', '2026-03-08T00:00:00.000Z', [
      { field: 'zip', code: 'invalid' },
    ]);
    await createOutcome(p, source, 'qualified', '2026-03-02T09:00:00.000Z');
    await createOutcome(p, source, 'qualified', '2026-03-06T09:00:00.000Z');
    await createOutcome(p, source, 'unreachable', '2026-03-08T00:00:00.000Z');
    // The second source: other figures, so a mix-up between rows shows.
    await createSubmission(p, second, 'duplicate', '2026-03-02T10:00:00.000Z');
    await createSubmission(p, second, 'duplicate', '2026-03-04T10:00:00.000Z');
    await createSubmission(p, second, 'rejected', '2026-03-04T11:00:00.000Z', [
      { field: 'zip', code: 'invalid' },
    ]);
    await createOutcome(p, second, 'not_interested', '2026-03-07T23:59:59.999Z');
    // Another account's source, in the range: neither listed nor counted.
    const stranger = await createStatsOwner(h);
    await createSubmission(p, stranger.source, 'accepted', '2026-03-03T10:00:00.000Z');
    await createOutcome(p, stranger.source, 'qualified', '2026-03-03T10:00:00.000Z');

    const body = await list(api, 'from=2026-03-01&to=2026-03-07');
    expect(body.next_cursor).toBeNull();
    const row = (id: string, figures: object) => ({
      id,
      name: 'Acme Leads',
      source_type: 'vendor',
      status: 'active',
      playbook_id: source.playbookId,
      accepted: 0,
      duplicate: 0,
      rejected: { total: 0, by_reason: [] },
      outcomes: zeroOutcomes(),
      ...figures,
    });
    // Newest first, like GET /marketing_sources.
    expect(body.data).toEqual([
      row(idle.sourceId, { name: 'Idle', source_type: 'web_form', status: 'paused' }),
      row(second.sourceId, {
        duplicate: 2,
        rejected: { total: 1, by_reason: [{ field: 'zip', code: 'invalid', count: 1 }] },
        outcomes: { ...zeroOutcomes(), not_interested: 1 },
      }),
      row(source.sourceId, {
        accepted: 2,
        duplicate: 1,
        rejected: {
          total: 2,
          by_reason: [
            { field: 'phone', code: 'invalid', count: 2 },
            { field: 'email', code: 'required', count: 1 },
          ],
        },
        outcomes: { ...zeroOutcomes(), qualified: 2 },
      }),
    ]);

    // The per-source endpoint gives each row's very figures.
    for (const listed of body.data as Record<string, unknown>[]) {
      const one = await api.get(
        `/api/v1/marketing_sources/${listed.id}/stats?from=2026-03-01&to=2026-03-07`,
      );
      const { by_day: _days, ...figures } = one.body;
      const { id: _id, name: _n, source_type: _t, status: _s, playbook_id: _p, ...own } = listed;
      expect(own).toEqual(figures);
    }

    // Widening by a day on each side brings exactly the rows just outside.
    const wide = await list(api, 'from=2026-02-28&to=2026-03-08');
    expect(wide.data.find((r) => r.id === source.sourceId)).toMatchObject({
      accepted: 3,
      rejected: { total: 3 },
      outcomes: { qualified: 2, unreachable: 1 },
    });
    // Instants: from is inclusive, to is inclusive to the millisecond.
    const instants = await list(
      api,
      new URLSearchParams({
        from: '2026-03-03T08:00:00.001Z',
        to: '2026-03-07T23:59:59.998Z',
      }).toString(),
    );
    expect(instants.data.find((r) => r.id === source.sourceId)).toMatchObject({
      accepted: 0,
      duplicate: 1,
      rejected: { total: 1 },
      outcomes: { qualified: 1 },
    });

    // The stranger sees only its own source, with its own figures.
    const theirs = await list(stranger.api, 'from=2026-03-01&to=2026-03-07');
    expect(theirs.data).toEqual([
      expect.objectContaining({
        id: stranger.source.sourceId,
        accepted: 1,
        outcomes: { ...zeroOutcomes(), qualified: 1 },
      }),
    ]);
  });

  it('leaves deleted sources out, pages with limit and cursor, and defaults to the last 30 days', async () => {
    const { api, source, newSource } = await createStatsOwner(h);
    const sources = [source.sourceId];
    for (let i = 0; i < 4; i++) sources.push((await newSource()).sourceId);
    const gone = await newSource();
    expect((await api.delete(`/api/v1/marketing_sources/${gone.sourceId}`)).status).toBe(204);
    // Today (default range) and 30 days ago (just outside it).
    const now = Date.now();
    await createSubmission(h.prisma, source, 'accepted', new Date(now - 1000).toISOString());
    const dayMs = 86_400_000;
    const outside = now - (now % dayMs) - 29 * dayMs - 1;
    await createSubmission(h.prisma, source, 'accepted', new Date(outside).toISOString());

    const all = await list(api, '');
    expect(all.data.map((r) => r.id)).toEqual([...sources].reverse());
    expect(all.data.at(-1)).toMatchObject({ id: source.sourceId, accepted: 1 });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(api, `limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.data.map((r) => r.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...sources].reverse());
  });

  it('answers 422 for a bad range or limit, and 401 without a key', async () => {
    const { api } = await createStatsOwner(h);
    const cases: [string, string, string][] = [
      ['from=2026-03-08&to=2026-03-07', 'from', 'invalid'],
      ['from=2025-01-01&to=2026-01-02', 'from', 'too_long'],
      ['to=2026-02-30', 'to', 'invalid'],
      ['limit=1001', 'limit', 'invalid'],
      ['limit=0', 'limit', 'invalid'],
    ];
    for (const [query, field, code] of cases) {
      const res = await api.get(`/api/v1/stats/sources?${query}`);
      expect([query, res.status, res.body.error?.code]).toEqual([query, 422, 'validation_failed']);
      expect([query, res.body.error.details]).toEqual([
        query,
        [expect.objectContaining({ field, code })],
      ]);
    }
    expect((await h.anonymous.get('/api/v1/stats/sources')).status).toBe(401);
  });

  it('is documented: query parameters and the SourceStatsList schema', async () => {
    const doc = (await h.anonymous.get('/api/v1/openapi.json')).body;
    const op = doc.paths['/stats/sources']?.get;
    expect(op.operationId).toBe('listMarketingSourceStats');
    expect(op.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      'query:from',
      'query:to',
      'query:limit',
      'query:cursor',
    ]);
    expect(op.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SourceStatsList',
    });
    expect(doc.components.schemas.SourceStatsList).toEqual(
      JSON.parse(JSON.stringify(sourceStatsListSchema)),
    );
  });
});
