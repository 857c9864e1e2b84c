import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  exampleLead,
  intakeResponses,
  integrationInstructions,
} from './integration-instructions.js';
import { LEAD_FIELD_NAMES, leadSubmissionSchema } from './lead.schema.js';
import { createLeadValidator } from './lead.validation.js';

/**
 * Every example a seller is shown validates: the schema's examples, the phone
 * notations its description offers, the Integration Instructions' curl bodies and
 * the lead bodies in the README and docs/. (services/intake's
 * intake.examples.test.ts posts the same examples to a running intake.)
 */

const validate = createLeadValidator();
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The notations a field's description offers in parentheses, e.g. "(5125550147, (512) …)". */
function describedPhones(): string[] {
  const { description } = leadSubmissionSchema.properties.phone;
  const list = /notation \((.*?)\);/.exec(description)?.[1];
  if (!list) throw new Error('the phone description lists no notations');
  return list.split(', ');
}

/** The -d body of a curl JSON example, and the name=value pairs of a curl form example. */
export function curlJsonBody(example: string): Record<string, unknown> {
  const body = /-d '([\s\S]*)'$/.exec(example)?.[1];
  if (body === undefined) throw new Error('no -d body');
  return JSON.parse(body.replace(/'\\''/g, "'")) as Record<string, unknown>;
}
export function curlFormBody(example: string): Record<string, string> {
  const pairs = [...example.matchAll(/--data-urlencode '([^=]+)=((?:[^']|'\\'')*)'/g)];
  return Object.fromEntries(pairs.map((m) => [m[1]!, m[2]!.replace(/'\\''/g, "'")]));
}

/** Lead bodies (JSON objects with a phone and an email) in the fenced code blocks of a Markdown file. */
function markdownLeads(text: string): Record<string, unknown>[] {
  const leads: Record<string, unknown>[] = [];
  for (const block of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    for (const candidate of block[1]!.matchAll(/\{[^{}]*"phone"[^{}]*\}/g)) {
      const object: unknown = JSON.parse(candidate[0]);
      if (object && typeof object === 'object' && 'email' in object) {
        leads.push(object as Record<string, unknown>);
      }
    }
  }
  return leads;
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

  it('the curl JSON and curl form examples are two valid leads with different phones', () => {
    const doc = integrationInstructions({
      id: 'src_example',
      post_url: 'https://leads.example.com/marketing_sources/acc_x/key',
    });
    const json = curlJsonBody(doc.examples.curl_json);
    const form = curlFormBody(doc.examples.curl_form);
    expect(Object.keys(form)).toEqual([...LEAD_FIELD_NAMES, 'external_id']);
    const [a, b] = [validate(json), validate(form)];
    if (!a.ok || !b.ok) throw new Error(JSON.stringify([problemsOf(json), problemsOf(form)]));
    expect(a.lead.fields.phone).not.toBe(b.lead.fields.phone);
    expect(a.lead.externalId).not.toBe(b.lead.externalId);
  });

  it('the lead bodies in the README and docs/ are valid', () => {
    const docs = join(ROOT, 'docs');
    const files = [
      join(ROOT, 'README.md'),
      ...(readdirSync(ROOT).includes('docs')
        ? readdirSync(docs)
            .filter((f) => f.endsWith('.md'))
            .map((f) => join(docs, f))
        : []),
    ];
    for (const file of files) {
      for (const lead of markdownLeads(readFileSync(file, 'utf8'))) {
        expect([file, lead, problemsOf(lead)]).toEqual([file, lead, []]);
      }
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
