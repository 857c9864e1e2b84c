import {
  EXTRA_FIELD_LIMITS,
  INTAKE_RESPONSES,
  type IntegrationInstructions,
  leadSubmissionSchema,
  type MarketingSource,
} from '@leadhook/contracts';

type Field = IntegrationInstructions['fields'][number];

const REQUIRED: readonly string[] = leadSubmissionSchema.required;

/**
 * Every accepted field, read from the same schema intake validates with, so the
 * instructions cannot drift from what intake checks.
 */
export function integrationFields(): Field[] {
  return Object.entries(leadSubmissionSchema.properties).map(([name, schema]) => ({
    name,
    required: REQUIRED.includes(name),
    type: 'string' as const,
    format: 'format' in schema && typeof schema.format === 'string' ? schema.format : null,
    description: schema.description,
    example: schema.examples[0],
    max_length: schema.maxLength,
  }));
}

/** A single-quoted shell word: `'` becomes `'\''`. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function htmlEscape(text: string): string {
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

function curlJson(postUrl: string, fields: readonly Field[]): string {
  const body = Object.fromEntries(fields.map((f) => [f.name, f.example]));
  return [
    `curl -X POST ${shellQuote(postUrl)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}

function curlForm(postUrl: string, fields: readonly Field[]): string {
  return [
    `curl -X POST ${shellQuote(postUrl)} \\`,
    ...fields.map(
      (f, i) =>
        `  --data-urlencode ${shellQuote(`${f.name}=${f.example}`)}${i < fields.length - 1 ? ' \\' : ''}`,
    ),
  ].join('\n');
}

function htmlForm(postUrl: string, fields: readonly Field[]): string {
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

/** The Integration Instructions of one source (docs/api.md, "Marketing sources"), all on its real post_url. */
export function integrationInstructions(source: MarketingSource): IntegrationInstructions {
  const fields = integrationFields();
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
    responses: INTAKE_RESPONSES.map((r) => ({
      case: r.case,
      status: r.status,
      body: r.example,
      ...(r.headers ? { headers: r.headers } : {}),
    })),
    examples: {
      curl_json: curlJson(source.post_url, fields),
      curl_form: curlForm(source.post_url, fields),
      html_form: htmlForm(source.post_url, fields),
    },
  };
}
