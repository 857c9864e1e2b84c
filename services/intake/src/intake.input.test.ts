import { useHarness, validLead } from '@leadhook/testkit';
import request from 'supertest';
import { countRows, createHarness, FORM_HEADERS, type TestSource } from './testing/harness.js';

/**
 * Input that PostgreSQL cannot store or that a reader would misread: each is a
 * 4xx of its own, stores no lead, keeps nothing of the seller's, and logs no
 * error (docs/intake.md, "Body types" and "Extra fields").
 */

const h = useHarness(() => createHarness());

const MARK = 'zq7mark';
const FORM = 'application/x-www-form-urlencoded';

/** A lead as JSON text with `extra` (JSON text) appended as its last properties. */
function jsonLeadWith(extra: string): string {
  return `${JSON.stringify(validLead({ email: `${MARK}@example.com` })).slice(0, -1)},${extra}}`;
}

function formLeadWith(extra: string): string {
  return `${new URLSearchParams(validLead({ email: `${MARK}@example.com` }) as Record<string, string>)}&${extra}`;
}

function errorLines(): string[] {
  return h.logLines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
}

/** Nothing stored but a rejection of codes and our field names; no error logged. */

/**
 * `text` posted as `type` to a fresh source is refused as a whole: `status`, one
 * error naming no field with `code`, and no submission kept.
 */
async function expectRefusedWhole(type: string, text: string, status: number, code: string) {
  const source = await h.makeSource();
  const res = await h.post(source, text, { 'Content-Type': type });
  expect(res.status).toBe(status);
  expect(res.body.errors).toEqual([{ field: null, code, message: expect.any(String) }]);
  expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(0);
}

async function expectRejectedAndKeptClean(source: TestSource): Promise<void> {
  expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(0);
  const { rows } = await h.pool.query('SELECT * FROM submissions WHERE source_id = $1', [
    source.sourceId,
  ]);
  for (const row of rows) {
    expect(JSON.stringify(row)).not.toContain(MARK);
    expect(JSON.stringify(row)).not.toMatch(/__proto__|constructor|prototype/);
  }
  const stored = await h.pool.query('SELECT * FROM idempotency_keys WHERE source_id = $1', [
    source.sourceId,
  ]);
  for (const row of stored.rows) expect(JSON.stringify(row)).not.toContain(MARK);
  expect(errorLines()).toEqual([]);
}

describe('text that cannot be stored, and deep nesting', () => {
  it.each([
    ['a NUL in external_id', jsonLeadWith(`"external_id":"${MARK}\\u0000x"`), 'external_id'],
    ['a NUL in an extra field name', jsonLeadWith(`"${MARK}\\u0000x":"v"`), `${MARK}\u0000x`],
    ['a lone surrogate in an extra value', jsonLeadWith(`"${MARK}":"a\\ud800b"`), MARK],
    [
      'an extra field nested 5,000 levels',
      jsonLeadWith(`"${MARK}":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`),
      MARK,
    ],
  ])('%s is 422 invalid, with or without an Idempotency-Key', async (_case, text, field) => {
    for (const key of [null, `${MARK}-key`]) {
      const source = await h.makeSource();
      const req = request(h.app).post(source.path).set('Content-Type', 'application/json');
      const res = await (key ? req.set('Idempotency-Key', key) : req).send(text);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field, code: 'invalid', message: expect.any(String) }]);
      await expectRejectedAndKeptClean(source);
    }
  });

  it('a NUL in a form field is 422 invalid', async () => {
    const source = await h.makeSource();
    const res = await h.post(source, formLeadWith(`external_id=${MARK}%00x`), FORM_HEADERS);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'external_id', code: 'invalid', message: expect.any(String) },
    ]);
    await expectRejectedAndKeptClean(source);
  });
});

describe('reserved names', () => {
  it.each(['__proto__', 'constructor', 'prototype'])(
    'an extra field named %s is 422 invalid, as JSON and as a form, and its name is not kept',
    async (name) => {
      for (const [type, text] of [
        ['application/json', jsonLeadWith(`"${name}":"${MARK}"`)],
        [FORM, formLeadWith(`${name}=${MARK}`)],
      ] as const) {
        const source = await h.makeSource();
        const res = await h.post(source, text, { 'Content-Type': type });
        expect(res.status).toBe(422);
        // The seller's answer names the field: it is theirs.
        expect(res.body.errors).toEqual([
          { field: name, code: 'invalid', message: expect.stringMatching(/reserved/) },
        ]);
        const { rows } = await h.pool.query<{ errors: unknown }>(
          'SELECT errors FROM submissions WHERE source_id = $1',
          [source.sourceId],
        );
        expect(rows.map((row) => row.errors)).toEqual([[{ field: null, code: 'unknown_field' }]]);
        await expectRejectedAndKeptClean(source);
      }
    },
  );
});

describe('form parsing', () => {
  it('a name sent more than once is 422 invalid', async () => {
    const source = await h.makeSource();
    const res = await h.post(source, formLeadWith(`${MARK}=1&${MARK}=2`), FORM_HEADERS);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: MARK, code: 'invalid', message: expect.any(String) },
    ]);
    await expectRejectedAndKeptClean(source);
  });

  it.each([
    ['a form', FORM, Array.from({ length: 76 }, (_, i) => `${MARK}${i}=1`).join('&')],
    [
      'a JSON object',
      'application/json',
      JSON.stringify(Object.fromEntries(Array.from({ length: 76 }, (_, i) => [`${MARK}${i}`, 1]))),
    ],
  ])(
    '%s of more than 75 fields is 413 too_many_fields, and nothing is kept',
    async (_c, type, text) => {
      await expectRefusedWhole(type, text, 413, 'too_many_fields');
    },
  );

  it('75 fields are read (a lead with 58 extra fields is 422 too_many_fields)', async () => {
    const source = await h.makeSource();
    const extras = Array.from({ length: 58 }, (_, i) => `${MARK}${i}=1`).join('&');
    const res = await h.post(source, formLeadWith(extras), FORM_HEADERS);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 'too_many_fields' });
  });
});

describe('charsets', () => {
  it.each([
    ['application/json; charset=utf-7', '{"first_name":"+ADw-script+AD4-"}'],
    ['application/json; charset=utf-16', '{}'],
    ['application/json; charset=utf-16le', '{}'],
    ['application/json; charset=latin1', '{}'],
    [`${FORM}; charset=utf-7`, 'first_name=%2BADw-script%2BAD4-'],
    [`${FORM}; charset=iso-8859-1`, 'first_name=x'],
    [`${FORM}; charset=utf-16`, 'first_name=x'],
  ])('%s is 415, and nothing is kept', async (type, text) => {
    await expectRefusedWhole(type, text, 415, 'unsupported_media_type');
  });

  it.each([
    ['application/json', 'application/json; charset=UTF-8', JSON.stringify],
    ['application/json', 'application/json; charset="utf-8"', JSON.stringify],
    [
      'a form',
      `${FORM}; charset=utf-8`,
      (lead: Record<string, unknown>) =>
        new URLSearchParams(lead as Record<string, string>).toString(),
    ],
    [
      'a form',
      FORM,
      (lead: Record<string, unknown>) =>
        new URLSearchParams(lead as Record<string, string>).toString(),
    ],
  ])('%s as %s makes a lead', async (_what, type, encode) => {
    const source = await h.makeSource();
    const res = await h.post(source, encode(validLead()), { 'Content-Type': type });
    expect(res.status).toBe(201);
  });
});
