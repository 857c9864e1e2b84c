import { LEAD_FIELD_NAMES } from '@leadhook/contracts';
import { useHarness, validLead } from '@leadhook/testkit';

import { countRows, createHarness, FORM_HEADERS } from './testing/harness.js';

/**
 * Bodies that are not leads (empty, or a form that is not a form) answer 400, and
 * what is kept of a rejected lead is codes and our own field names: nothing the
 * seller wrote, in the submission, the stats it feeds, or a stored idempotent answer.
 */

const h = useHarness(() => createHarness());

const MALFORMED = {
  status: 'rejected',
  errors: [{ field: null, code: 'malformed_body', message: expect.any(String) }],
};

describe('a body that is not a lead', () => {
  it.each(['application/json', 'application/x-www-form-urlencoded'])(
    'an empty %s body (Content-Length: 0) is 400 malformed_body',
    async (type) => {
      const source = await h.makeSource();
      const res = await h.post(source, '', { 'Content-Type': type, 'Content-Length': '0' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(MALFORMED);
      expect(res.body.errors[0].message).toMatch(/empty/);
      expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(0);
    },
  );

  it.each([
    ['a JSON lead', JSON.stringify(validLead({ email: 'zq9.form@leak.example.com' }))],
    [
      'a JSON lead with = and & in it',
      JSON.stringify(validLead({ tcpa_opt_in_url: 'https://x.example/?a=1&b=2' })),
    ],
    ['a JSON array', '[{"first_name":"Zq9name"}]'],
    ['a pair, then JSON', 'first_name=Jane&{"email":"zq9.form@leak.example.com"}=1'],
    ['text without a pair', 'Zq9name zq9.form@leak.example.com'],
  ])('%s posted as a form is 400 malformed_body, and nothing is kept', async (_case, body) => {
    const source = await h.makeSource();
    const res = await h.post(source, body, FORM_HEADERS);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(MALFORMED);
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(0);
  });

  it('a real form still makes a lead', async () => {
    const source = await h.makeSource();
    const form = new URLSearchParams(validLead() as Record<string, string>).toString();
    const res = await h.post(source, form, FORM_HEADERS);
    expect(res.status).toBe(201);
  });
});

describe('what is kept of a rejected lead', () => {
  const MARK = 'zq9mark';
  const KNOWN: ReadonlySet<string> = new Set([...LEAD_FIELD_NAMES, 'external_id']);

  /** A lead with problems in known fields and in the seller's own fields, all carrying MARK. */
  function badLead(): Record<string, unknown> {
    const extras = Object.fromEntries(
      Array.from({ length: 55 }, (_, i) => [`${MARK}_extra_${i}`, `${MARK} value ${i}`]),
    );
    return {
      ...validLead({ email: `${MARK}@example`, external_id: `${MARK}-ext` }),
      ...extras,
      [`${MARK}_${'n'.repeat(70)}`]: 'long name',
      [`${MARK}_long_value`]: `${MARK} ${'v'.repeat(1100)}`,
      [`${MARK}_object`]: { nested: MARK },
    };
  }

  it('is codes and lead field names only, in the submission and in a stored idempotent answer', async () => {
    const source = await h.makeSource();
    const key = `${MARK}-idempotency-key`;
    const body = badLead();
    const first = await h.post(source, body, {
      'Idempotency-Key': key,
      'User-Agent': `${MARK}-agent`,
    });
    expect(first.status).toBe(422);
    // The answer itself names the seller's fields: it is theirs.
    expect(JSON.stringify(first.body)).toContain(`${MARK}_object`);

    const { rows } = await h.pool.query<{ errors: { field: string | null; code: string }[] }>(
      'SELECT * FROM submissions WHERE source_id = $1',
      [source.sourceId],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(MARK);
    const reasons = rows[0]!.errors;
    expect(reasons).toEqual([
      { field: 'email', code: 'invalid' },
      { field: null, code: 'too_many_fields' },
      { field: null, code: 'unknown_field' },
    ]);
    for (const { field } of reasons) if (field !== null) expect(KNOWN.has(field)).toBe(true);

    const stored = await h.pool.query('SELECT * FROM idempotency_keys WHERE source_id = $1', [
      source.sourceId,
    ]);
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows[0])).not.toContain(MARK);

    // The replay answers the stored 422: the same problems, the seller's field names left out.
    const replay = await h.post(source, body, { 'Idempotency-Key': key });
    expect(replay.status).toBe(422);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(JSON.stringify(replay.body)).not.toContain(MARK);
    expect(replay.body.errors).toEqual(
      first.body.errors.map((e: { field: string }) => ({
        ...e,
        field: KNOWN.has(e.field) ? e.field : null,
      })),
    );
  });
});
