import { OUTCOME_LABELS, sourceStatsSchema } from '@leadhook/contracts';
import { useHarness } from '@leadhook/testkit';
import { startHarness } from './testing/harness.js';
import { createOutcome, createStatsOwner, createSubmission } from './testing/stats.factory.js';
import { bodyValidator } from './validation.js';

const isStats = bodyValidator(sourceStatsSchema);

const h = useHarness(() => startHarness());

const owner = () => createStatsOwner(h);

const zeroOutcomes = () => Object.fromEntries(OUTCOME_LABELS.map((l) => [l, 0]));
interface DayFigures {
  accepted?: number;
  duplicate?: number;
  /** Rejected submissions, then their reasons as [field, code, count]. */
  rejected?: [number, ...[string, string, number][]];
  outcomes?: Record<string, number>;
}
/** One by_day entry: zeros but for the figures given. */
const day = (date: string, figures: DayFigures = {}) => {
  const [total, ...reasons] = figures.rejected ?? [0];
  return {
    date,
    accepted: figures.accepted ?? 0,
    duplicate: figures.duplicate ?? 0,
    rejected: { total, by_reason: reasons.map(([field, code, count]) => ({ field, code, count })) },
    outcomes: { ...zeroOutcomes(), ...figures.outcomes },
  };
};
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

describe('GET /marketing_sources/{id}/stats', () => {
  it('counts a week exactly: results, reasons in order, outcomes by label, every day', async () => {
    const { api, source, newSource } = await owner();
    const p = h.prisma;
    // Just outside the range, on both sides: never counted.
    await createSubmission(p, source, 'accepted', '2026-02-28T23:59:59.999Z');
    await createSubmission(p, source, 'rejected', '2026-03-08T00:00:00.000Z', [
      { field: 'zip', code: 'invalid' },
    ]);
    // Inside.
    await createSubmission(p, source, 'accepted', '2026-03-01T00:00:00.000Z');
    await createSubmission(p, source, 'duplicate', '2026-03-01T12:00:00.000Z');
    await createSubmission(p, source, 'accepted', '2026-03-03T08:00:00.000Z');
    await createSubmission(p, source, 'accepted', '2026-03-03T09:30:00.000Z');
    await createSubmission(p, source, 'rejected', '2026-03-03T09:00:00.000Z', [
      { field: 'email', code: 'required' },
      { field: 'phone', code: 'invalid' },
    ]);
    await createSubmission(p, source, 'rejected', '2026-03-05T10:00:00.000Z', [
      { field: 'phone', code: 'invalid' },
    ]);
    await createSubmission(p, source, 'rejected', '2026-03-07T23:59:59.999Z', [
      { field: 'phone', code: 'invalid' },
      { field: 'email', code: 'invalid' },
      { field: 'date_of_birth', code: 'invalid' },
    ]);
    // Outcomes: in range on 03-02 (two) and 03-07; outside on both sides.
    await createOutcome(p, source, 'qualified', '2026-03-02T09:00:00.000Z');
    await createOutcome(p, source, 'not_interested', '2026-03-02T23:00:00.000Z');
    await createOutcome(p, source, 'qualified', '2026-03-07T23:59:59.999Z');
    await createOutcome(p, source, 'unreachable', '2026-02-28T23:59:59.999Z');
    await createOutcome(p, source, 'opted_out', '2026-03-08T00:00:00.000Z');
    // The same account's other source, and another account: never counted here.
    const sibling = await newSource();
    await createSubmission(p, sibling, 'accepted', '2026-03-02T10:00:00.000Z');
    await createSubmission(p, sibling, 'rejected', '2026-03-02T10:00:00.000Z', [
      { field: 'phone', code: 'invalid' },
    ]);
    await createOutcome(p, sibling, 'qualified', '2026-03-02T10:00:00.000Z');
    const stranger = await owner();
    await createSubmission(p, stranger.source, 'duplicate', '2026-03-04T10:00:00.000Z');
    await createOutcome(p, stranger.source, 'interested', '2026-03-04T10:00:00.000Z');

    const res = await api.get(
      `/api/v1/marketing_sources/${source.sourceId}/stats?from=2026-03-01&to=2026-03-07`,
    );
    expect(res.status).toBe(200);
    expect(isStats(res.body)).toEqual({ ok: true, value: res.body });
    expect(res.body).toEqual({
      accepted: 3,
      duplicate: 1,
      rejected: {
        total: 3,
        by_reason: [
          { field: 'phone', code: 'invalid', count: 3 },
          { field: 'date_of_birth', code: 'invalid', count: 1 },
          { field: 'email', code: 'invalid', count: 1 },
          { field: 'email', code: 'required', count: 1 },
        ],
      },
      outcomes: { ...zeroOutcomes(), qualified: 2, not_interested: 1 },
      // Each day has the same figures as the whole range: reasons in the same order.
      by_day: [
        day('2026-03-01', { accepted: 1, duplicate: 1 }),
        day('2026-03-02', { outcomes: { qualified: 1, not_interested: 1 } }),
        day('2026-03-03', {
          accepted: 2,
          rejected: [1, ['email', 'required', 1], ['phone', 'invalid', 1]],
        }),
        day('2026-03-04'),
        day('2026-03-05', { rejected: [1, ['phone', 'invalid', 1]] }),
        day('2026-03-06'),
        day('2026-03-07', {
          rejected: [
            1,
            ['date_of_birth', 'invalid', 1],
            ['email', 'invalid', 1],
            ['phone', 'invalid', 1],
          ],
          outcomes: { qualified: 1 },
        }),
      ],
    });
    // Every catalog outcome label is a key, and nothing else.
    expect(Object.keys(res.body.outcomes).sort()).toEqual([...OUTCOME_LABELS].sort());

    // Widening by one day on each side brings exactly the rows just outside.
    const wide = await api.get(
      `/api/v1/marketing_sources/${source.sourceId}/stats?from=2026-02-28&to=2026-03-08`,
    );
    expect(wide.status).toBe(200);
    expect(wide.body).toMatchObject({
      accepted: 4,
      rejected: { total: 4 },
      outcomes: { qualified: 2, not_interested: 1, unreachable: 1, opted_out: 1 },
    });
    expect(wide.body.rejected.by_reason).toContainEqual({
      field: 'zip',
      code: 'invalid',
      count: 1,
    });
    expect(wide.body.by_day).toHaveLength(9);
    expect(wide.body.by_day[0]).toEqual(
      day('2026-02-28', { accepted: 1, outcomes: { unreachable: 1 } }),
    );
    expect(wide.body.by_day[8]).toEqual(
      day('2026-03-08', { rejected: [1, ['zip', 'invalid', 1]], outcomes: { opted_out: 1 } }),
    );
  });

  it('counts a submission with the same reason twice once for it', async () => {
    const { api, source } = await owner();
    await createSubmission(h.prisma, source, 'rejected', '2026-05-01T10:00:00.000Z', [
      { field: 'phone', code: 'invalid' },
      { field: 'phone', code: 'invalid' },
    ]);
    const res = await api.get(
      `/api/v1/marketing_sources/${source.sourceId}/stats?from=2026-05-01&to=2026-05-01`,
    );
    expect(res.body.rejected).toEqual({
      total: 1,
      by_reason: [{ field: 'phone', code: 'invalid', count: 1 }],
    });
    expect(res.body.by_day).toEqual([
      day('2026-05-01', { rejected: [1, ['phone', 'invalid', 1]] }),
    ]);
  });

  it('orders tied reasons by field bytewise (UTF-8), in total and per day, over several days', async () => {
    const { api, source } = await owner();
    // Extra fields' names are the seller's text: UTF-16 order would put the emoji
    // (a surrogate pair, 0xD83D…) before U+FFFD, bytewise it comes after (F0 > EF).
    const names = ['\u{1F600}_note', '\uFFFD_note', 'alpha', 'Zeta'];
    for (const at of ['2026-06-01T10:00:00.000Z', '2026-06-02T10:00:00.000Z']) {
      await createSubmission(
        h.prisma,
        source,
        'rejected',
        at,
        names.map((field) => ({ field, code: 'too_long' })),
      );
    }
    const res = await api.get(
      `/api/v1/marketing_sources/${source.sourceId}/stats?from=2026-06-01&to=2026-06-02`,
    );
    expect(res.status).toBe(200);
    const order = ['Zeta', 'alpha', '\uFFFD_note', '\u{1F600}_note'];
    expect(res.body.rejected).toEqual({
      total: 2,
      by_reason: order.map((field) => ({ field, code: 'too_long', count: 2 })),
    });
    const perDay = order.map((field): [string, string, number] => [field, 'too_long', 1]);
    expect(res.body.by_day).toEqual([
      day('2026-06-01', { rejected: [1, ...perDay] }),
      day('2026-06-02', { rejected: [1, ...perDay] }),
    ]);
  });

  it('takes date-times: from and to are inclusive instants, days cut in UTC', async () => {
    const { api, source } = await owner();
    const p = h.prisma;
    await createSubmission(p, source, 'accepted', '2026-04-01T11:59:59.999Z'); // before from
    await createSubmission(p, source, 'duplicate', '2026-04-01T12:00:00.000Z'); // == from
    await createSubmission(p, source, 'accepted', '2026-04-03T08:00:00.000Z'); // == to
    await createSubmission(p, source, 'accepted', '2026-04-03T08:00:00.001Z'); // after to
    await createOutcome(p, source, 'callback_requested', '2026-04-02T00:30:00.000Z');

    // 10:00+02:00 is 08:00Z.
    const query = new URLSearchParams({
      from: '2026-04-01T12:00:00Z',
      to: '2026-04-03T10:00:00.000+02:00',
    });
    const res = await api.get(`/api/v1/marketing_sources/${source.sourceId}/stats?${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      accepted: 1,
      duplicate: 1,
      rejected: { total: 0, by_reason: [] },
      outcomes: { callback_requested: 1, qualified: 0 },
    });
    expect(res.body.by_day).toEqual([
      day('2026-04-01', { duplicate: 1 }),
      day('2026-04-02', { outcomes: { callback_requested: 1 } }),
      day('2026-04-03', { accepted: 1 }),
    ]);
  });

  it('defaults to the last 30 UTC days, today included', async () => {
    const { api, source } = await owner();
    const p = h.prisma;
    const now = Date.now();
    const todayStart = now - (now % DAY_MS);
    const firstDay = todayStart - 29 * DAY_MS;
    await createSubmission(p, source, 'accepted', new Date(now - 1000).toISOString());
    await createSubmission(p, source, 'duplicate', new Date(firstDay).toISOString());
    await createSubmission(p, source, 'accepted', new Date(firstDay - 1).toISOString()); // day 31
    await createOutcome(p, source, 'qualified', new Date(firstDay + 3_600_000).toISOString());

    const res = await api.get(`/api/v1/marketing_sources/${source.sourceId}/stats`);
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(1);
    expect(res.body.duplicate).toBe(1);
    expect(res.body.outcomes.qualified).toBe(1);
    const days: { date: string }[] = res.body.by_day;
    expect(days.map((d) => d.date)).toEqual(
      Array.from({ length: 30 }, (_, i) => utcDay(firstDay + i * DAY_MS)),
    );
    expect(days[0]).toEqual(day(utcDay(firstDay), { duplicate: 1, outcomes: { qualified: 1 } }));
    expect(days[29]).toEqual(day(utcDay(todayStart), { accepted: 1 }));

    // Only `to`: the 30 days that end with it.
    const ending = await api.get(
      `/api/v1/marketing_sources/${source.sourceId}/stats?to=2026-03-31`,
    );
    expect(ending.status).toBe(200);
    expect(ending.body.by_day).toHaveLength(30);
    expect(ending.body.by_day[0].date).toBe('2026-03-02');
    expect(ending.body.by_day[29].date).toBe('2026-03-31');
  });

  it('answers 404 for another account, a deleted source and an unknown id', async () => {
    const { api, source } = await owner();
    const stranger = await owner();
    const path = (id: string) => `/api/v1/marketing_sources/${id}/stats`;
    expect((await api.get(path(source.sourceId))).status).toBe(200);

    const foreign = await stranger.api.get(path(source.sourceId));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');

    expect((await api.delete(`/api/v1/marketing_sources/${source.sourceId}`)).status).toBe(204);
    const deleted = await api.get(path(source.sourceId));
    expect(deleted.status).toBe(404);
    expect(deleted.body.error.code).toBe('not_found');

    expect((await api.get(path('src_00000000000000000000000000'))).status).toBe(404);
    // Without a key it is 401, like every other management route.
    expect((await h.anonymous.get(path(source.sourceId))).status).toBe(401);
  });

  it('answers 422 with the reason for a bad range', async () => {
    const { api, source } = await owner();
    const get = (query: string) =>
      api.get(`/api/v1/marketing_sources/${source.sourceId}/stats?${query}`);
    const cases: [string, string, string][] = [
      ['from=2026-03-08&to=2026-03-07', 'from', 'invalid'],
      ['from=2025-01-01&to=2026-01-02', 'from', 'too_long'],
      ['from=2020-01-01', 'from', 'too_long'],
      ['from=yesterday', 'from', 'invalid'],
      ['to=2026-02-30', 'to', 'invalid'],
      ['to=2026-03-01T10:00:00', 'to', 'invalid'],
    ];
    for (const [query, field, code] of cases) {
      const res = await get(query);
      expect([query, res.status, res.body.error?.code]).toEqual([query, 422, 'validation_failed']);
      expect([query, res.body.error.details]).toEqual([
        query,
        [expect.objectContaining({ field, code })],
      ]);
    }
    // The ceiling itself is allowed: a leap year, 366 days.
    const year = await get('from=2024-01-01&to=2024-12-31');
    expect(year.status).toBe(200);
    expect(year.body.by_day).toHaveLength(366);
  });

  it('is documented: query parameters, the SourceStats schema and a 422', async () => {
    const doc = (await h.anonymous.get('/api/v1/openapi.json')).body;
    const op = doc.paths['/marketing_sources/{id}/stats']?.get;
    expect(op.operationId).toBe('getMarketingSourceStats');
    expect(op.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'query:from',
      'query:to',
    ]);
    expect(op.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SourceStats',
    });
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '404', '422', '429', '503']);
    expect(doc.components.schemas.SourceStats).toEqual(
      JSON.parse(JSON.stringify(sourceStatsSchema)),
    );
  });
});
