import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  exampleLead,
  intakeResponses,
  integrationInstructions,
  LEAD_FIELD_NAMES,
  LEAD_FIELDS,
  leadSubmissionSchema,
} from '@leadhook/contracts';
import request from 'supertest';
import { createHarness, FORM_HEADERS, type Harness } from './testing/harness.js';

/**
 * Every example a seller is shown makes a lead when posted: the Integration
 * Instructions' curl JSON and curl form examples (two different leads: two 201s,
 * not a 201 and a duplicate), every example of every field, the phone notations
 * the schema describes, and the lead bodies in the README and docs/.
 */

let h: Harness;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** Shell single-quoted words: `'\''` is a quote. */
const unquote = (text: string) => text.replace(/'\\''/g, "'");

function curlJsonBody(example: string): Record<string, unknown> {
  const body = /-d '([\s\S]*)'$/.exec(example)?.[1];
  if (body === undefined) throw new Error('no -d body');
  return JSON.parse(unquote(body)) as Record<string, unknown>;
}

function curlFormBody(example: string): string {
  const pairs = [...example.matchAll(/--data-urlencode '([^=]+)=((?:[^']|'\\'')*)'/g)];
  const form = new URLSearchParams();
  for (const [, name, value] of pairs) form.append(name!, unquote(value!));
  return form.toString();
}

/** JSON lead bodies (objects with a phone and an email) in the fenced code blocks of a Markdown file. */
function markdownLeads(text: string): Record<string, unknown>[] {
  const leads: Record<string, unknown>[] = [];
  for (const block of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    for (const candidate of block[1]!.matchAll(/\{[^{}]*"phone"[^{}]*\}/g)) {
      let object: unknown;
      try {
        object = JSON.parse(candidate[0]);
      } catch {
        continue; // not a JSON body a seller could paste (a shell-escaped one, say)
      }
      if (object && typeof object === 'object' && 'email' in object) {
        leads.push(object as Record<string, unknown>);
      }
    }
  }
  return leads;
}

/** Posts a body to a source of a new account (so equal phones are not duplicates of each other). */
async function post(body: Record<string, unknown>): Promise<request.Response> {
  const source = await h.makeSource();
  return h.post(source, body);
}

/** Posts `body` (as {@link post} does) and expects it accepted; `about` names it in a failure. */
async function expectAccepted(about: unknown[], body: Record<string, unknown>): Promise<void> {
  const res = await post(body);
  expect([...about, res.status, res.body]).toEqual([
    ...about,
    201,
    expect.objectContaining({ status: 'accepted' }),
  ]);
}

describe('documented examples, posted to intake', () => {
  it('the curl JSON and curl form examples of the Integration Instructions make two leads', async () => {
    const source = await h.makeSource();
    const doc = integrationInstructions({
      id: source.sourceId,
      post_url: `http://intake.test${source.path}`,
    });
    const json = await h.post(source, curlJsonBody(doc.examples.curl_json));
    expect([json.status, json.body.status]).toEqual([201, 'accepted']);
    const form = await h.post(source, curlFormBody(doc.examples.curl_form), FORM_HEADERS);
    expect([form.status, form.body.status]).toEqual([201, 'accepted']);
    expect(form.body.lead_id).not.toBe(json.body.lead_id);
  });

  it('the examples make leads on a source that requires a recognised consent certificate, whose instructions say so', async () => {
    const source = await h.makeSource({ consentRequired: 'recognised' });
    const doc = integrationInstructions({
      id: source.sourceId,
      post_url: `http://intake.test${source.path}`,
      consent_required: 'recognised',
    });
    const token = doc.fields.find((f) => f.name === 'tcpa_opt_in_token');
    expect(token?.description).toContain('consent_unrecognised');
    const json = await h.post(source, curlJsonBody(doc.examples.curl_json));
    expect([json.status, json.body.status]).toEqual([201, 'accepted']);
    const form = await h.post(source, curlFormBody(doc.examples.curl_form), FORM_HEADERS);
    expect([form.status, form.body.status]).toEqual([201, 'accepted']);
    // Each on a source of a new account: the example phone is the same.
    for (const example of LEAD_FIELDS.tcpa_opt_in_token.examples) {
      const other = await h.makeSource({ consentRequired: 'recognised' });
      const res = await h.post(other, { ...exampleLead(0), tcpa_opt_in_token: example });
      expect([example, res.status]).toEqual([example, 201]);
    }
  });

  it('every example of every field makes a lead', async () => {
    for (const [name, schema] of Object.entries(leadSubmissionSchema.properties)) {
      for (const example of schema.examples) {
        await expectAccepted([name, example], { ...exampleLead(0), [name]: example });
      }
    }
  });

  it('every phone notation the phone field describes makes a lead', async () => {
    const list = /notation \((.*?)\);/.exec(LEAD_FIELDS.phone.description);
    const phones = list?.[1]?.split(', ') ?? [];
    expect(phones.length).toBeGreaterThanOrEqual(3);
    for (const phone of phones) {
      const res = await post({ ...exampleLead(1), phone });
      expect([phone, res.status]).toEqual([phone, 201]);
    }
  });

  it('every lead body in the README and docs/ makes a lead', async () => {
    const files = [join(ROOT, 'README.md')];
    if (readdirSync(ROOT).includes('docs')) {
      for (const name of readdirSync(join(ROOT, 'docs'))) {
        if (name.endsWith('.md')) files.push(join(ROOT, 'docs', name));
      }
    }
    for (const file of files) {
      for (const lead of markdownLeads(readFileSync(file, 'utf8'))) {
        expect(Object.keys(lead)).toEqual(expect.arrayContaining([...LEAD_FIELD_NAMES]));
        await expectAccepted([file, lead], lead);
      }
    }
  });

  it("the response examples are intake's own answers, messages included", async () => {
    const source = await h.makeSource();
    const example = (status: number) => intakeResponses().find((r) => r.status === status)?.example;
    const { phone: _phone, ...withoutPhone } = exampleLead(0);
    const answers: [number, request.Test][] = [
      [422, h.post(source, { ...withoutPhone, email: 'jane.doe@example' })],
      [400, h.post(source, '{"first_name":', { 'Content-Type': 'application/json' })],
      [404, request(h.app).post(`${source.path}x`).send(exampleLead(0))],
      [413, h.post(source, { note: 'x'.repeat(70_000) })],
      [415, request(h.app).post(source.path).type('text/plain').send('x')],
    ];
    for (const [status, answer] of answers) {
      const res = await answer;
      expect([status, res.status, res.body]).toEqual([status, status, example(status)]);
    }
    const lead = { ...exampleLead(1), phone: '(512) 555-0111' };
    await h.post(source, lead, { 'Idempotency-Key': 'k' });
    const conflict = await h.post(
      source,
      { ...lead, first_name: 'Other' },
      { 'Idempotency-Key': 'k' },
    );
    expect([conflict.status, conflict.body]).toEqual([409, example(409)]);
  });
});
