import {
  createLeadValidator,
  EXTRA_FIELD_LIMITS,
  intakeResponses,
  integrationInstructionsSchema,
  LEAD_FIELD_NAMES,
  LEAD_FIELDS,
} from '@leadhook/contracts';
import { type Harness, playbookBody, sourceBody, startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isInstructions = bodyValidator(integrationInstructionsSchema);
const ALL_FIELDS = [...LEAD_FIELD_NAMES, 'external_id'] as const;

let h: Harness;
let postUrl: string;
let doc: {
  post_url: string;
  method: string;
  content_types: string[];
  fields: {
    name: string;
    required: boolean;
    format: string | null;
    example: string;
    max_length: number;
    description: string;
  }[];
  extra_fields: { max_fields: number; max_name_length: number; max_value_bytes: number };
  responses: { status: number; body: Record<string, unknown> }[];
  examples: { curl_json: string; curl_form: string; html_form: string };
};

beforeAll(async () => {
  h = await startHarness();
  const { api_key } = await h.newAccount();
  const api = h.as(api_key);
  const playbookId: string = (await api.post('/api/v1/playbooks').send(playbookBody())).body.id;
  const source = (await api.post('/api/v1/marketing_sources').send(sourceBody(playbookId))).body;
  // Rotate once: the instructions must carry the current URL, not the first one.
  postUrl = (await api.post(`/api/v1/marketing_sources/${source.id}/rotate_url`)).body.post_url;
  expect(postUrl).not.toBe(source.post_url);
  const res = await api.get(`/api/v1/marketing_sources/${source.id}/integration`);
  expect(res.status).toBe(200);
  expect(isInstructions(res.body).ok).toBe(true);
  doc = res.body;
});
afterAll(async () => {
  await h.close();
});

describe('GET /marketing_sources/{id}/integration', () => {
  it('names the exact post_url, the method and both content types', () => {
    expect(doc.post_url).toBe(postUrl);
    expect(doc.method).toBe('POST');
    expect(doc.content_types).toEqual(['application/json', 'application/x-www-form-urlencoded']);
  });

  it('lists every field with required/format/description/example/max_length from the lead schema', () => {
    expect(doc.fields.map((f) => f.name)).toEqual([...ALL_FIELDS]);
    for (const field of doc.fields) {
      const spec = Object.entries(LEAD_FIELDS).find(([name]) => name === field.name)?.[1];
      if (!spec) throw new Error(`${field.name} is not a lead field`);
      expect(field).toEqual({
        name: field.name,
        required: field.name !== 'external_id',
        type: 'string',
        format: spec.format ?? null,
        description: spec.description,
        example: spec.examples[0],
        max_length: spec.maxLength,
      });
    }
    expect(doc.fields.find((f) => f.name === 'phone')?.format).toBe('phone');
  });

  it('states the extra-field rules and the response table', () => {
    expect(doc.extra_fields).toMatchObject({
      max_fields: EXTRA_FIELD_LIMITS.maxFields,
      max_name_length: EXTRA_FIELD_LIMITS.maxNameLength,
      max_value_bytes: EXTRA_FIELD_LIMITS.maxValueBytes,
    });
    const statuses = doc.responses.map((r) => r.status);
    for (const status of [201, 200, 422, 400, 404, 409, 413, 415, 429, 503]) {
      expect(statuses).toContain(status);
    }
    expect(doc.responses).toHaveLength(intakeResponses().length);
    expect(doc.responses.find((r) => r.status === 201)?.body).toMatchObject({ status: 'accepted' });
    expect(doc.responses.find((r) => r.status === 200)?.body).toMatchObject({
      status: 'duplicate',
    });
    expect(doc.responses.find((r) => r.status === 422)?.body).toMatchObject({ status: 'rejected' });
  });

  it('gives a curl JSON example on the real URL whose body has every field', () => {
    const example = doc.examples.curl_json;
    expect(example).toContain(`curl -X POST '${postUrl}'`);
    expect(example).toContain('Content-Type: application/json');
    const body = /-d '([\s\S]*)'$/.exec(example)?.[1];
    expect(body).toBeDefined();
    const parsed: Record<string, string> = JSON.parse(body ?? '');
    expect(Object.keys(parsed)).toEqual([...ALL_FIELDS]);
    for (const name of ALL_FIELDS) expect(parsed[name]).toBe(LEAD_FIELDS[name].examples[0]);
  });

  it('gives examples that work as pasted: the body is a valid lead, no placeholder header', () => {
    const body = /-d '([\s\S]*)'$/.exec(doc.examples.curl_json)?.[1] ?? '';
    const result = createLeadValidator()(JSON.parse(body));
    expect(result.ok && result.lead.fields.phone).toBe('+15125550147');
    for (const example of [doc.examples.curl_json, doc.examples.curl_form]) {
      expect(example).not.toMatch(/<[^>]*>/);
    }
  });

  it('gives a curl form example on the real URL with every field, for another lead', () => {
    const example = doc.examples.curl_form;
    expect(example).toContain(`curl -X POST '${postUrl}'`);
    for (const name of ALL_FIELDS) {
      expect(example).toContain(`--data-urlencode '${name}=${LEAD_FIELDS[name].examples[1]}'`);
    }
  });

  it('gives an HTML form posting to the real URL with an input per field', () => {
    const html = doc.examples.html_form;
    expect(html).toContain(`<form method="post" action="${postUrl}"`);
    const names = [...html.matchAll(/<input [^>]*name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual([...ALL_FIELDS]);
    expect(html).toMatch(/<input [^>]*name="email"[^>]*required/);
    expect(html).not.toMatch(/<input [^>]*name="external_id"[^>]*required/);
  });
});
