/**
 * A source's consent rule (docs/intake.md, "Consent evidence"): "any" takes every
 * non-blank token, "recognised" only a TrustedForm certificate or a Jornaya LeadiD.
 */
import { useHarness, validLead } from '@leadhook/testkit';
import { createHarness } from './testing/harness.js';

const h = useHarness(() => createHarness());

const TRUSTEDFORM_ID = 'eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947';
const JORNAYA = 'A1B2C3D4-E5F6-4789-ABCD-EF0123456789';

const unrecognised = {
  field: 'tcpa_opt_in_token',
  code: 'consent_unrecognised',
  message: expect.stringContaining('TrustedForm'),
};

describe('a source that requires a recognised consent certificate', () => {
  it.each([
    ['a TrustedForm certificate URL', `https://cert.trustedform.com/${TRUSTEDFORM_ID}`],
    ['a TrustedForm certificate id', TRUSTEDFORM_ID],
    ['a Jornaya LeadiD token', JORNAYA],
  ])('accepts %s', async (_name, token) => {
    const source = await h.makeSource({ consentRequired: 'recognised' });
    const res = await h.post(source, validLead({ tcpa_opt_in_token: ` ${token} ` }));
    expect(res.status).toBe(201);
    const { rows } = await h.pool.query('SELECT tcpa_opt_in_token FROM leads WHERE id = $1', [
      res.body.lead_id,
    ]);
    expect(rows).toEqual([{ tcpa_opt_in_token: token }]);
  });

  it('rejects another token with 422 consent_unrecognised, and keeps the reason', async () => {
    const source = await h.makeSource({ consentRequired: 'recognised' });
    const res = await h.post(source, validLead({ tcpa_opt_in_token: 'consent-123' }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ status: 'rejected', errors: [unrecognised] });
    const { rows } = await h.pool.query(
      "SELECT errors FROM submissions WHERE source_id = $1 AND result = 'rejected'",
      [source.sourceId],
    );
    expect(rows).toEqual([
      { errors: [{ field: 'tcpa_opt_in_token', code: 'consent_unrecognised' }] },
    ]);
    expect(
      Number(
        (await h.pool.query('SELECT count(*) FROM leads WHERE source_id = $1', [source.sourceId]))
          .rows[0].count,
      ),
    ).toBe(0);
  });

  it('lists the unrecognised token with the other problems, in field order', async () => {
    const source = await h.makeSource({ consentRequired: 'recognised' });
    const res = await h.post(
      source,
      validLead({ email: 'not-an-email', tcpa_opt_in_token: 'consent-123', tcpa_opt_in_url: '' }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['email', 'invalid'],
      ['tcpa_opt_in_token', 'consent_unrecognised'],
      ['tcpa_opt_in_url', 'required'],
    ]);
  });

  it('answers a blank token required, as any source does', async () => {
    const source = await h.makeSource({ consentRequired: 'recognised' });
    const res = await h.post(source, validLead({ tcpa_opt_in_token: '  ' }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'tcpa_opt_in_token', code: 'required', message: expect.any(String) },
    ]);
  });

  it('applies with an Idempotency-Key too', async () => {
    const source = await h.makeSource({ consentRequired: 'recognised' });
    const res = await h.post(source, validLead({ tcpa_opt_in_token: 'consent-123' }), {
      'Idempotency-Key': 'consent-rule-1',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([unrecognised]);
  });
});

describe('a source that takes any token (the default)', () => {
  it('accepts a token of no known provider', async () => {
    const source = await h.makeSource();
    const res = await h.post(source, validLead({ tcpa_opt_in_token: 'consent-123' }));
    expect(res.status).toBe(201);
  });
});
