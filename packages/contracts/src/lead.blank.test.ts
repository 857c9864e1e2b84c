import { exampleLead } from './integration-instructions.js';
import { createLeadValidator, rejectionReasons } from './lead.validation.js';

/** Blank values, phones with letters or extensions, ZIPs as numbers, and what a rejection keeps. */

const validate = createLeadValidator({ now: () => new Date('2026-11-22T15:04:05.000Z') });
const lead = (overrides: Record<string, unknown>) => ({ ...exampleLead(0), ...overrides });

function codes(body: Record<string, unknown>): Array<[string, string]> {
  const result = validate(body);
  return result.ok ? [] : result.errors.map((e) => [e.field, e.code]);
}

describe('blank means blank', () => {
  it.each([
    ['spaces', '   '],
    ['a tab and a newline', '\t\n'],
    ['a zero-width space', '\u200b'],
    ['a BOM', '\ufeff'],
    ['a no-break space and a word joiner', '\u00a0\u2060'],
    ['an ideographic space', '\u3000'],
    ['bidi marks', '\u200e\u200f'],
    ['a soft hyphen', '\u00ad'],
  ])('a value of only %s is required', (_case, value) => {
    expect(codes(lead({ first_name: value, email: value }))).toEqual([
      ['first_name', 'required'],
      ['email', 'required'],
    ]);
  });

  it('trims invisible characters around a value', () => {
    const result = validate(lead({ first_name: '\u200bJane\ufeff', external_id: '\u200b' }));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.lead.fields.first_name).toBe('Jane');
    expect(result.lead.externalId).toBeNull();
  });
});

describe('phone', () => {
  it.each([
    '+15125550195abc',
    '512-555-0195 call me',
    '1-800-FLOWERS',
    'x12',
    '５１２５５５０１９５ext',
  ])('%s has letters: invalid', (phone) => {
    expect(codes(lead({ phone }))).toEqual([['phone', 'invalid']]);
  });

  it.each(['512\u2013555\u20130195', '(512)\u00a0555-0195', '+1 512 555 0195'])(
    '%s has no letter: valid',
    (phone) => {
      const result = validate(lead({ phone }));
      expect(result.ok && result.lead.fields.phone).toBe('+15125550195');
    },
  );

  it.each([
    ['512-555-0195 x12', '12'],
    ['512-555-0195x12', '12'],
    ['(512) 555-0195 ext. 12', '12'],
    ['+1 512 555 0195 ext 123', '123'],
    ['512.555.0195 #7', '7'],
    ['5125550195, extension 45', '45'],
  ])('%s: the extension is kept as phone_extension', (phone, extension) => {
    const result = validate(lead({ phone }));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.lead.fields.phone).toBe('+15125550195');
    expect(result.lead.extra).toEqual({ phone_extension: extension });
  });

  it("keeps the seller's own phone_extension field", () => {
    const result = validate(lead({ phone: '512-555-0195 x12', phone_extension: '9' }));
    expect(result.ok && result.lead.extra).toEqual({ phone_extension: '9' });
  });
});

describe('ZIP as a JSON number', () => {
  it.each([
    [7030, '07030'],
    [501, '00501'],
    [78701, '78701'],
    [70301234, '07030-1234'],
    [787011234, '78701-1234'],
  ])('%d is stored as %s', (zip, stored) => {
    const result = validate(lead({ current_residence_zip: zip }));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.lead.fields.current_residence_zip).toBe(stored);
  });

  it.each([[7030.5], [-7030], [123456]])('%d is invalid', (zip) => {
    expect(codes(lead({ current_residence_zip: zip }))).toEqual([
      ['current_residence_zip', 'invalid'],
    ]);
  });
});

describe('rejectionReasons', () => {
  it('keeps known fields and codes, never an unknown field name, each reason once', () => {
    const extras = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`{"email":"zq@x.example","n":${i}}`, 'x']),
    );
    const result = validate({ ...extras, email: 'nope', [`${'k'.repeat(70)}`]: 'v' });
    if (result.ok) throw new Error('accepted');
    // The answer names the seller's fields; what is kept does not.
    expect(result.errors.some((e) => e.field.includes('zq@x.example'))).toBe(true);
    const reasons = rejectionReasons(result.errors);
    expect(JSON.stringify(reasons)).not.toMatch(/zq@x|kkk/);
    expect(reasons).toContainEqual({ field: 'email', code: 'invalid' });
    expect(reasons).toContainEqual({ field: 'phone', code: 'required' });
    expect(reasons).toContainEqual({ field: null, code: 'too_many_fields' });
    expect(reasons).toContainEqual({ field: null, code: 'unknown_field' });
    expect(reasons.length).toBe(new Set(reasons.map((r) => `${r.field} ${r.code}`)).size);
  });
});
