/**
 * A source's consent rule (docs/intake.md, "Consent evidence"): "any" takes every
 * non-blank token, "recognised" only a TrustedForm certificate or a Jornaya LeadiD.
 * Either way the provider the token's shape shows is kept with the lead.
 */
import { useHarness, validLead } from '@leadhook/testkit';
import { createHarness } from './testing/harness.js';

const h = useHarness(() => createHarness());

const TRUSTEDFORM_ID = 'eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947';
const JORNAYA = 'A1B2C3D4-E5F6-4789-ABCD-EF0123456789';

/** The consent columns intake stored with a lead. */
async function storedConsent(leadId: string): Promise<unknown> {
  const { rows } = await h.pool.query(
    'SELECT tcpa_opt_in_token, consent_provider FROM leads WHERE id = $1',
    [leadId],
  );
  return rows;
}

const unrecognised = {
  field: 'tcpa_opt_in_token',
  code: 'consent_unrecognised',
  message: expect.stringContaining('TrustedForm'),
};

describe('a source that requires a recognised consent certificate', () => {
  it.each([
    [
      'a TrustedForm certificate URL',
      `https://cert.trustedform.com/${TRUSTEDFORM_ID}`,
      'trustedform',
    ],
    ['a TrustedForm certificate id', TRUSTEDFORM_ID, 'trustedform'],
    ['a Jornaya LeadiD token', JORNAYA, 'jornaya'],
  ])('accepts %s, and keeps its provider with the lead', async (_name, token, provider) => {
    const source = await h.makeSource({ consentRequired: 'recognised' });
    const res = await h.post(source, validLead({ tcpa_opt_in_token: ` ${token} ` }));
    expect(res.status).toBe(201);
    expect(await storedConsent(res.body.lead_id)).toEqual([
      { tcpa_opt_in_token: token, consent_provider: provider },
    ]);
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
  it('accepts a token of no known provider, and keeps no provider with the lead', async () => {
    const source = await h.makeSource();
    const res = await h.post(source, validLead({ tcpa_opt_in_token: 'consent-123' }));
    expect(res.status).toBe(201);
    expect(await storedConsent(res.body.lead_id)).toEqual([
      { tcpa_opt_in_token: 'consent-123', consent_provider: null },
    ]);
  });

  // Both ways a lead is stored: group-committed (intake_accept_batch) and, with
  // an Idempotency-Key, alone (intake_accept).
  it.each([
    [`https://cert.trustedform.com/${TRUSTEDFORM_ID}`, 'trustedform'],
    [TRUSTEDFORM_ID.toUpperCase(), 'trustedform'],
    [JORNAYA, 'jornaya'],
    ['consent-123', null],
  ])('keeps the provider of %s with the lead: %s', async (token, provider) => {
    const source = await h.makeSource();
    const batched = await h.post(source, validLead({ tcpa_opt_in_token: token }));
    const alone = await h.post(source, validLead({ tcpa_opt_in_token: token }), {
      'Idempotency-Key': 'consent-provider-1',
    });
    expect([batched.status, alone.status]).toEqual([201, 201]);
    for (const res of [batched, alone]) {
      expect(await storedConsent(res.body.lead_id)).toEqual([
        { tcpa_opt_in_token: token, consent_provider: provider },
      ]);
    }
  });
});
