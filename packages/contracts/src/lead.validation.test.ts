import { LEAD_FIELD_NAMES } from './lead.schema.js';
import { createLeadValidator, type LeadFieldError, rejectionReasons } from './lead.validation.js';

const NOW = new Date('2026-11-22T15:04:05.000Z');
const validate = createLeadValidator({ now: () => NOW });

function lead(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.com',
    phone: '(512) 555-0147',
    current_insurance_carrier: 'Acme Mutual',
    current_insurance_coverage: '100/300/100',
    current_residence_address: '123 Main St',
    current_residence_city: 'Austin',
    current_residence_state: 'tx',
    current_residence_zip: '78701',
    date_of_birth: '1985-04-12',
    gender: ' Female ',
    marital_status: 'Married',
    credit_rating: 'GOOD',
    tcpa_opt_in_token: 'a1b2c3d4-e5f6-4789-abcd-ef0123456789',
    tcpa_opt_in_url: 'https://quotes.example.com/auto?step=consent',
    ...overrides,
  };
}

function errorsOf(body: Record<string, unknown>): LeadFieldError[] {
  const result = validate(body);
  if (result.ok) throw new Error('expected the lead to be rejected');
  return result.errors;
}

function codes(body: Record<string, unknown>): Array<[string, string]> {
  return errorsOf(body).map((e) => [e.field, e.code]);
}

describe('a valid lead', () => {
  it('is normalized: E.164 phone, upper-case state, ISO date, canonical values', () => {
    const result = validate(lead({ external_id: ' v-1 ', utm_source: 'google', score: 7 }));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.lead.fields).toMatchObject({
      phone: '+15125550147',
      current_residence_state: 'TX',
      date_of_birth: '1985-04-12',
      gender: ' Female ',
      credit_rating: 'GOOD',
    });
    expect(result.lead.canonical).toEqual({
      gender: 'female',
      marital_status: 'married',
      credit_rating: 'good',
    });
    expect(result.lead.externalId).toBe('v-1');
    expect(result.lead.extra).toEqual({ utm_source: 'google', score: 7 });
  });

  it.each([
    ['5125550147', '+15125550147'],
    ['512.555.0147', '+15125550147'],
    ['1-512-555-0147', '+15125550147'],
    ['+1 416 555 0199', '+14165550199'],
    ['+44 20 7946 0958', '+442079460958'],
    [5125550147, '+15125550147'],
  ])('phone %j is stored as %s', (phone, e164) => {
    const result = validate(lead({ phone }));
    expect(result.ok && result.lead.fields.phone).toBe(e164);
  });

  it.each([
    ['04/12/1985', '1985-04-12'],
    ['4/2/1985', '1985-04-02'],
    ['2000-02-29', '2000-02-29'],
    ['2026-11-21', '2026-11-21'],
  ])('date_of_birth %j is stored as %s', (dob, iso) => {
    const result = validate(lead({ date_of_birth: dob }));
    expect(result.ok && result.lead.fields.date_of_birth).toBe(iso);
  });

  it.each([
    ['78701', '78701'],
    [78701, '78701'],
    ['78701-1234', '78701-1234'],
    ['787011234', '78701-1234'],
  ])('zip %j is stored as %s', (zip, stored) => {
    const result = validate(lead({ current_residence_zip: zip }));
    expect(result.ok && result.lead.fields.current_residence_zip).toBe(stored);
  });

  it.each(['pr', 'Dc', 'GU', 'vi'])('accepts the state or territory %s', (state) => {
    expect(validate(lead({ current_residence_state: state })).ok).toBe(true);
  });

  it('treats a blank external_id as absent', () => {
    const result = validate(lead({ external_id: '  ' }));
    expect(result.ok && result.lead.externalId).toBeNull();
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses an extra field named %s (docs/intake.md, "Extra fields")',
    (name) => {
      const body = JSON.parse(`{"${name}": "x", ${JSON.stringify(lead()).slice(1)}`);
      const result = validate(body);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors).toEqual([
        { field: name, code: 'invalid', message: expect.stringMatching(/reserved/) },
      ]);
      expect(rejectionReasons(result.errors)).toEqual([{ field: null, code: 'unknown_field' }]);
    },
  );
});

describe('a rejected lead', () => {
  it('reports every missing field, in field order', () => {
    expect(codes({})).toEqual(LEAD_FIELD_NAMES.map((name) => [name, 'required']));
  });

  it('reports every problem at once, one per field', () => {
    expect(
      codes(
        lead({
          email: 'nope',
          phone: '555-0147',
          current_residence_state: 'XX',
          current_residence_zip: '1234',
          date_of_birth: '2030-01-01',
          tcpa_opt_in_url: 'ftp://example.com/x',
          first_name: '   ',
          last_name: 'x'.repeat(101),
        }),
      ),
    ).toEqual([
      ['first_name', 'required'],
      ['last_name', 'too_long'],
      ['email', 'invalid'],
      ['phone', 'invalid'],
      ['current_residence_state', 'invalid'],
      ['current_residence_zip', 'invalid'],
      ['date_of_birth', 'invalid'],
      ['tcpa_opt_in_url', 'invalid'],
    ]);
  });

  it.each([
    ['phone', '5555550123'],
    ['phone', '123'],
    ['phone', 5.5],
    ['phone', true],
    ['current_residence_zip', 213456],
    ['email', 12],
    ['first_name', null],
    ['gender', ['female']],
    ['credit_rating', { value: 'good' }],
    ['date_of_birth', '1985-02-30'],
    ['date_of_birth', '13/01/1985'],
    ['date_of_birth', '1899-12-31'],
    ['date_of_birth', '2026-11-22'],
    ['date_of_birth', '12-04-1985'],
    ['tcpa_opt_in_url', 'javascript:alert(1)'],
    ['tcpa_opt_in_url', 'https://exa mple.com'],
    ['current_residence_state', 'AE'],
    ['external_id', 42],
  ])('%s = %j is invalid', (field, value) => {
    const errors = errorsOf(lead({ [field]: value }));
    expect(errors).toEqual([{ field, code: 'invalid', message: expect.any(String) }]);
  });

  it('gives specific messages', () => {
    const [phone] = errorsOf(lead({ phone: '123' }));
    expect(phone?.message).toMatch(/dialable phone number/);
    const [state] = errorsOf(lead({ current_residence_state: 'ZZ' }));
    expect(state?.message).toMatch(/two-letter US state/);
    const [blank] = errorsOf(lead({ email: ' ' }));
    expect(blank).toEqual({ field: 'email', code: 'required', message: 'must not be blank' });
    const [long] = errorsOf(lead({ first_name: 'x'.repeat(101) }));
    expect(long?.message).toBe('must be at most 100 characters');
  });

  it('prefers too_long over a format problem on the same field', () => {
    expect(codes(lead({ tcpa_opt_in_url: `ftp://${'x'.repeat(2050)}` }))).toEqual([
      ['tcpa_opt_in_url', 'too_long'],
    ]);
  });

  it('bounds extra fields: count, name length, value size and type', () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`x${i}`, i]));
    expect(codes(lead(many))).toEqual([['x50', 'too_many_fields']]);
    expect(validate(lead(Object.fromEntries(Object.entries(many).slice(0, 50)))).ok).toBe(true);

    const longName = 'n'.repeat(65);
    expect(codes(lead({ [longName]: 'v' }))).toEqual([[`${'n'.repeat(64)}…`, 'too_long']]);
    expect(validate(lead({ ['n'.repeat(64)]: 'v' })).ok).toBe(true);

    expect(codes(lead({ note: 'é'.repeat(513) }))).toEqual([['note', 'too_long']]);
    expect(validate(lead({ note: 'é'.repeat(512) })).ok).toBe(true);

    expect(codes(lead({ tags: ['a', 'b'] }))).toEqual([['tags', 'invalid']]);
  });
});

describe('characters PostgreSQL cannot store', () => {
  it.each([
    ['first_name', 'Ja\u0000ne', 'first_name'],
    ['email', 'jane\uD800@example.com', 'email'],
    ['favorite_color', 'bl\uDC00ue', 'favorite_color'],
  ])('%s with %j is invalid, not a server error', (name, value, field) => {
    const result = validate(lead({ [name]: value }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContainEqual(expect.objectContaining({ field, code: 'invalid' }));
  });
  it('accepts a well-formed surrogate pair (an emoji)', () => {
    expect(validate(lead({ first_name: 'Jane 😀' })).ok).toBe(true);
  });
  it('bounds a canonical field by what was sent, padding included', () => {
    const result = validate(lead({ gender: ` ${'f'.repeat(50)} ` }));
    expect(result.ok === false && result.errors).toEqual([
      expect.objectContaining({ field: 'gender', code: 'too_long' }),
    ]);
  });
});
