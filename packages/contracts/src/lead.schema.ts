/**
 * The lead submission (docs/intake.md, "Fields"): one JSON Schema that intake validates with,
 * the Integration Instructions describe, and OpenAPI publishes.
 *
 * Custom formats (registered in validation.ts): `phone` (dialable, any common
 * US/Canada notation, else international with +), `us-state` (two-letter state or
 * territory, any case), `us-zip` (ZIP or ZIP+4), `past-date` (YYYY-MM-DD or
 * MM/DD/YYYY, a real date in the past), `http-url`, and ajv-formats' `email`.
 * `pattern: \S` makes a blank string fail as `required`, not `invalid`.
 */

export const LEAD_FIELD_NAMES = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'current_insurance_carrier',
  'current_insurance_coverage',
  'current_residence_address',
  'current_residence_city',
  'current_residence_state',
  'current_residence_zip',
  'date_of_birth',
  'gender',
  'marital_status',
  'credit_rating',
  'tcpa_opt_in_token',
  'tcpa_opt_in_url',
] as const;

export type LeadFieldName = (typeof LEAD_FIELD_NAMES)[number];

/** Fields stored as sent and also as a trimmed, lower-cased canonical value. */
export const CANONICAL_FIELDS = ['gender', 'marital_status', 'credit_rating'] as const;

/** Bounds on unknown extra fields (docs/intake.md, "Extra fields"). */
export const EXTRA_FIELD_LIMITS = {
  maxFields: 50,
  maxNameLength: 64,
  maxValueBytes: 1024,
} as const;

interface FieldSpec {
  description: string;
  maxLength: number;
  format?: string;
  example: string;
}

/** Every field with its meaning, bound, format and example (Integration Instructions use them). */
export const LEAD_FIELDS: Record<LeadFieldName | 'external_id', FieldSpec> = {
  first_name: { description: "The lead's first name.", maxLength: 100, example: 'Jane' },
  last_name: { description: "The lead's last name.", maxLength: 100, example: 'Doe' },
  email: {
    description: 'An email address.',
    maxLength: 254,
    format: 'email',
    example: 'jane.doe@example.com',
  },
  phone: {
    description:
      'A dialable phone number. US/Canada numbers in any common notation (5555550123, (555) 555-0123, +1 555-555-0123); other countries with a leading +. A JSON number is accepted. Stored as E.164.',
    maxLength: 32,
    format: 'phone',
    example: '+1 512-555-0147',
  },
  current_insurance_carrier: {
    description: 'The current insurance carrier.',
    maxLength: 200,
    example: 'Acme Mutual',
  },
  current_insurance_coverage: {
    description: 'The current coverage.',
    maxLength: 200,
    example: '100/300/100',
  },
  current_residence_address: {
    description: 'Street address.',
    maxLength: 300,
    example: '123 Main St',
  },
  current_residence_city: { description: 'City.', maxLength: 100, example: 'Austin' },
  current_residence_state: {
    description: 'Two-letter US state or territory code, any case (TX, tx, PR).',
    maxLength: 2,
    format: 'us-state',
    example: 'TX',
  },
  current_residence_zip: {
    description: 'ZIP (5 digits) or ZIP+4 (12345-6789). A JSON number is accepted.',
    maxLength: 10,
    format: 'us-zip',
    example: '78701',
  },
  date_of_birth: {
    description:
      'A real date in the past: YYYY-MM-DD (recommended) or MM/DD/YYYY. Stored as YYYY-MM-DD.',
    maxLength: 10,
    format: 'past-date',
    example: '1985-04-12',
  },
  gender: {
    description: 'Any non-blank text, stored as sent and as a lower-cased canonical value.',
    maxLength: 50,
    example: 'female',
  },
  marital_status: {
    description: 'Any non-blank text, stored as sent and as a lower-cased canonical value.',
    maxLength: 50,
    example: 'married',
  },
  credit_rating: {
    description: 'Any non-blank text, stored as sent and as a lower-cased canonical value.',
    maxLength: 50,
    example: 'good',
  },
  tcpa_opt_in_token: {
    description: 'The consent token from your consent provider (e.g. a TrustedForm or Jornaya id).',
    maxLength: 500,
    example: 'a1b2c3d4-e5f6-4789-abcd-ef0123456789',
  },
  tcpa_opt_in_url: {
    description: 'The http(s) URL of the page where the lead gave consent.',
    maxLength: 2048,
    format: 'http-url',
    example: 'https://quotes.example.com/auto?step=consent',
  },
  external_id: {
    description: "Optional: your own id for the lead, echoed in webhooks' lead_originators.",
    maxLength: 200,
    example: 'vendor-lead-88213',
  },
};

function fieldSchema(spec: FieldSpec) {
  return {
    type: 'string',
    description: spec.description,
    minLength: 1,
    maxLength: spec.maxLength,
    pattern: '\\S',
    ...(spec.format ? { format: spec.format } : {}),
    examples: [spec.example],
  } as const;
}

/**
 * The submission as validated (after phone and zip numbers became strings).
 * Extra properties are allowed here and bounded separately (EXTRA_FIELD_LIMITS),
 * since they are the seller's, not ours.
 */
export const leadSubmissionSchema = {
  $id: 'LeadSubmission',
  title: 'Lead submission',
  type: 'object',
  required: [...LEAD_FIELD_NAMES],
  properties: Object.fromEntries(
    [...LEAD_FIELD_NAMES, 'external_id' as const].map((name) => [
      name,
      fieldSchema(LEAD_FIELDS[name]),
    ]),
  ),
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
} as const;
