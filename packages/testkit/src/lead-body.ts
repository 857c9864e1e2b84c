import { type LeadFieldName, toE164 } from '@leadhook/contracts';

/** A random, valid US (Austin, 512) number in national notation, and its E.164 form. */
export function randomPhone(): { national: string; e164: string } {
  for (;;) {
    const exchange = 200 + Math.floor(Math.random() * 800);
    const line = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
    const national = `(512) ${exchange}-${line}`;
    const e164 = toE164(national);
    if (e164 && exchange % 100 !== 11 && exchange !== 555) return { national, e164 };
  }
}

/** The fields of a complete submission, and whatever a test adds. */
export type LeadFields = Record<LeadFieldName, unknown> & Record<string, unknown>;

/**
 * A complete lead submission intake accepts, with a fresh phone number (the same
 * phone twice is a duplicate); override what a test is about.
 */
export function validLead(overrides: Record<string, unknown> = {}): LeadFields {
  return {
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.com',
    phone: randomPhone().national,
    current_insurance_carrier: 'Acme Mutual',
    current_insurance_coverage: '100/300/100',
    current_residence_address: '123 Main St',
    current_residence_city: 'Austin',
    current_residence_state: 'TX',
    current_residence_zip: '78701',
    date_of_birth: '1985-04-12',
    gender: 'Female',
    marital_status: 'married',
    credit_rating: 'good',
    tcpa_opt_in_token: 'a1b2c3d4-e5f6-4789-abcd-ef0123456789',
    tcpa_opt_in_url: 'https://quotes.example.com/auto?step=consent',
    ...overrides,
  };
}
