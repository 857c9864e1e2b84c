import { exampleLead, intakeResponses } from './integration-instructions.js';
import { LEAD_FIELD_NAMES, LEAD_FIELDS, leadSubmissionSchema } from './lead.schema.js';
import { createLeadValidator } from './lead.validation.js';

/**
 * Every example the lead schema shows validates: its examples and the phone
 * notations its description offers; the 422 example is the validator's own.
 * (services/intake's intake.examples.test.ts posts the Integration Instructions'
 * examples and the README's lead bodies to intake.)
 */

const validate = createLeadValidator();

/** The notations a field's description offers in parentheses, e.g. "(5125550147, (512) …)". */
function describedPhones(): string[] {
  const { description } = LEAD_FIELDS.phone;
  const list = /notation \((.*?)\);/.exec(description)?.[1];
  if (!list) throw new Error('the phone description lists no notations');
  return list.split(', ');
}

function problemsOf(body: Record<string, unknown>): unknown {
  const result = validate(body);
  return result.ok ? [] : result.errors;
}

describe('documented examples', () => {
  it.each([0, 1] as const)("the schema's example lead %i is valid", (index) => {
    const lead = exampleLead(index);
    expect(Object.keys(lead)).toEqual([...LEAD_FIELD_NAMES, 'external_id']);
    expect(problemsOf(lead)).toEqual([]);
  });

  it("every field's every example is valid in an otherwise valid lead", () => {
    for (const [name, schema] of Object.entries(leadSubmissionSchema.properties)) {
      expect(schema.examples.length).toBeGreaterThan(0);
      for (const example of schema.examples) {
        expect([name, example, problemsOf({ ...exampleLead(0), [name]: example })]).toEqual([
          name,
          example,
          [],
        ]);
      }
    }
  });

  it('every phone notation the description offers is valid', () => {
    const phones = describedPhones();
    expect(phones.length).toBeGreaterThanOrEqual(3);
    for (const phone of phones) {
      expect([phone, problemsOf({ ...exampleLead(0), phone })]).toEqual([phone, []]);
    }
  });

  it("the 422 example is the validator's own answer", () => {
    const example = intakeResponses().find((r) => r.status === 422)?.example;
    const { phone: _phone, ...withoutPhone } = exampleLead(0);
    const result = validate({ ...withoutPhone, email: 'jane.doe@example' });
    if (result.ok) throw new Error('accepted');
    expect(example).toEqual({ status: 'rejected', errors: result.errors });
    expect(result.errors.map((e) => [e.field, e.code])).toEqual([
      ['email', 'invalid'],
      ['phone', 'required'],
    ]);
  });
});
