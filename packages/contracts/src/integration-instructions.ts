/**
 * The Integration Instructions of one marketing source: what the management API
 * answers (GET /marketing_sources/{id}/integration) and what intake shows a
 * seller who opens the post URL in a browser. Built from the lead schema and the
 * real validator, so they cannot drift from what intake checks and answers.
 */
import type { IntakeResponseCase } from './api/intake-response.schema.js';
import { intakeResponseCases } from './api/intake-response.schema.js';
import type { IntegrationInstructions } from './api/integration.schema.js';
import type { ConsentRequirement } from './consent-provider.js';
import { EXTRA_FIELD_LIMITS, leadSubmissionSchema } from './lead.schema.js';
import { createLeadValidator } from './lead.validation.js';

export type IntegrationField = IntegrationInstructions['fields'][number];

/** What the instructions need of a source: its id, its current post URL and its consent rule. */
export interface IntegrationSource {
  id: string;
  post_url: string;
  /** Absent: "any", the default. */
  consent_required?: ConsentRequirement;
}

/** What the token field adds for a source that requires a recognised certificate. */
export const RECOGNISED_CONSENT_NOTE =
  'This source requires a recognised certificate: a TrustedForm certificate URL (https://cert.trustedform.com/ and 40 hex characters) or id (the 40 hex characters), or a Jornaya LeadiD token (a UUID); any other token is rejected (422, consent_unrecognised).';

/** The seller's URL: the intake key is its only credential (docs/intake.md). */
export function postUrlOf(publicBaseUrl: string, accountId: string, intakeKey: string): string {
  return `${publicBaseUrl}/marketing_sources/${encodeURIComponent(accountId)}/${encodeURIComponent(intakeKey)}`;
}

const REQUIRED: readonly string[] = leadSubmissionSchema.required;

/**
 * Every accepted field, read from the same schema intake validates with. The
 * example is the field's first example (the JSON example lead's value).
 */
export function integrationFields(consent: ConsentRequirement = 'any'): IntegrationField[] {
  return Object.entries(leadSubmissionSchema.properties).map(([name, schema]) => ({
    name,
    required: REQUIRED.includes(name),
    type: 'string' as const,
    format: 'format' in schema && typeof schema.format === 'string' ? schema.format : null,
    description:
      name === 'tcpa_opt_in_token' && consent === 'recognised'
        ? `${schema.description} ${RECOGNISED_CONSENT_NOTE}`
        : schema.description,
    example: schema.examples[0] ?? '',
    max_length: schema.maxLength,
  }));
}

/**
 * An example lead built from the schema's examples: 0 is the JSON example's lead,
 * 1 the form example's (a different person and phone, so pasting both examples
 * makes two leads, not a lead and its duplicate).
 */
export function exampleLead(index: 0 | 1): Record<string, string> {
  return Object.fromEntries(
    Object.entries(leadSubmissionSchema.properties).map(([name, schema]) => [
      name,
      schema.examples[index] ?? '',
    ]),
  );
}

let responses: readonly IntakeResponseCase[] | undefined;

/**
 * The intake's response table. Its 422 example is what the validator answers for
 * the example lead with an invalid email and no phone, so the messages a seller
 * reads are the real ones. Built on first use: it compiles a validator.
 */
export function intakeResponses(): readonly IntakeResponseCase[] {
  if (!responses) {
    const { phone: _phone, ...withoutPhone } = exampleLead(0);
    const result = createLeadValidator()({ ...withoutPhone, email: 'jane.doe@example' });
    if (result.ok) throw new Error('the invalid example lead was accepted');
    responses = intakeResponseCases({
      status: 'rejected',
      errors: result.errors.map(({ field, code, message }) => ({ field, code, message })),
    });
  }
  return responses;
}

/** A single-quoted shell word: `'` becomes `'\''`. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Text safe inside an HTML element or a quoted attribute. */
export function htmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const HTML_INPUT_TYPES: Record<string, string> = {
  email: 'email',
  phone: 'tel',
  'http-url': 'url',
  'past-date': 'date',
};

function curlJson(postUrl: string, lead: Record<string, string>): string {
  return [
    `curl -X POST ${shellQuote(postUrl)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(lead, null, 2))}`,
  ].join('\n');
}

function curlForm(postUrl: string, lead: Record<string, string>): string {
  const entries = Object.entries(lead);
  return [
    `curl -X POST ${shellQuote(postUrl)} \\`,
    ...entries.map(
      ([name, value], i) =>
        `  --data-urlencode ${shellQuote(`${name}=${value}`)}${i < entries.length - 1 ? ' \\' : ''}`,
    ),
  ].join('\n');
}

function htmlForm(postUrl: string, fields: readonly IntegrationField[]): string {
  const inputs = fields.map((f) => {
    const type = (f.format && HTML_INPUT_TYPES[f.format]) ?? 'text';
    const attributes = [
      `type="${type}"`,
      `id="${f.name}"`,
      `name="${f.name}"`,
      `maxlength="${f.max_length}"`,
      `placeholder="${htmlEscape(f.example)}"`,
      ...(f.required ? ['required'] : []),
    ];
    return `  <label for="${f.name}">${f.name}</label>\n  <input ${attributes.join(' ')}>`;
  });
  return [
    `<form method="post" action="${htmlEscape(postUrl)}" enctype="application/x-www-form-urlencoded">`,
    ...inputs,
    '  <button type="submit">Submit</button>',
    '</form>',
  ].join('\n');
}

/** The Integration Instructions of one source, all on its real post_url. */
export function integrationInstructions(source: IntegrationSource): IntegrationInstructions {
  const fields = integrationFields(source.consent_required);
  return {
    marketing_source_id: source.id,
    post_url: source.post_url,
    method: 'POST',
    content_types: ['application/json', 'application/x-www-form-urlencoded'],
    headers: [
      {
        name: 'Content-Type',
        required: true,
        description: 'application/json or application/x-www-form-urlencoded; anything else is 415.',
      },
      {
        name: 'Idempotency-Key',
        required: false,
        description:
          'Any unique string per lead. Sending the same key again within 24 h replays the first response (with Idempotent-Replayed: true) instead of creating a second lead; the same key with another body is 409.',
      },
    ],
    fields,
    extra_fields: {
      accepted: true,
      max_fields: EXTRA_FIELD_LIMITS.maxFields,
      max_name_length: EXTRA_FIELD_LIMITS.maxNameLength,
      max_value_bytes: EXTRA_FIELD_LIMITS.maxValueBytes,
      description: `Fields not listed here are kept with the lead, never dropped: at most ${EXTRA_FIELD_LIMITS.maxFields} of them, names up to ${EXTRA_FIELD_LIMITS.maxNameLength} characters, scalar values (string, number, boolean, null) up to ${EXTRA_FIELD_LIMITS.maxValueBytes} bytes. Beyond that the lead is rejected (422, too_many_fields or too_long). phone and current_residence_zip may be sent as JSON numbers.`,
    },
    responses: intakeResponses().map((r) => ({
      case: r.case,
      status: r.status,
      body: r.example,
      ...(r.headers ? { headers: r.headers } : {}),
    })),
    examples: {
      curl_json: curlJson(source.post_url, exampleLead(0)),
      curl_form: curlForm(source.post_url, exampleLead(1)),
      html_form: htmlForm(source.post_url, fields),
    },
  };
}
