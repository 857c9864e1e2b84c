/**
 * The lead submission (docs/intake.md, "Fields"): one JSON Schema that intake validates with,
 * the Integration Instructions describe, and OpenAPI publishes.
 *
 * Custom formats (registered in validation.ts): `phone` (dialable, any common
 * US/Canada notation, else international with +), `us-state` (two-letter state or
 * territory, any case), `us-zip` (ZIP or ZIP+4), `past-date` (YYYY-MM-DD or
 * MM/DD/YYYY, a real date in the past), `http-url`, and ajv-formats' `email`.
 * A blank value (only whitespace or invisible characters) fails as `required`, not `invalid`.
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
  /**
   * Two valid values: the first makes the example lead (the JSON example), the
   * second a different lead (the form example), so pasting both examples gives two
   * leads, not a lead and a duplicate. Every one passes validation (a test says so).
   */
  examples: readonly [string, string];
}

/** One of the CANONICAL_FIELDS: free text, also kept trimmed and lower-cased. */
function canonicalField(examples: FieldSpec['examples']): FieldSpec {
  return {
    description: 'Any non-blank text, stored as sent and as a lower-cased canonical value.',
    maxLength: 50,
    examples,
  };
}

/** Every field with its meaning, bound, format and examples (Integration Instructions use them). */
export const LEAD_FIELDS: Record<LeadFieldName | 'external_id', FieldSpec> = {
  first_name: { description: "The lead's first name.", maxLength: 100, examples: ['Jane', 'John'] },
  last_name: { description: "The lead's last name.", maxLength: 100, examples: ['Doe', 'Smith'] },
  email: {
    description: 'An email address.',
    maxLength: 254,
    format: 'email',
    examples: ['jane.doe@example.com', 'john.smith@example.com'],
  },
  phone: {
    description:
      'A dialable phone number. US/Canada numbers in any common notation (5125550147, (512) 555-0147, +1 512-555-0147); other countries with a leading + and the country code. A JSON number is accepted. Letters are refused, except an extension at the end (x12, ext 12, ext. 12, #12): it is kept with the lead as the extra field phone_extension, and the number is stored without it, as E.164.',
    maxLength: 32,
    format: 'phone',
    examples: ['+1 512-555-0147', '(512) 555-0198'],
  },
  current_insurance_carrier: {
    description: 'The current insurance carrier.',
    maxLength: 200,
    examples: ['Acme Mutual', 'Lone Star Insurance'],
  },
  current_insurance_coverage: {
    description: 'The current coverage.',
    maxLength: 200,
    examples: ['100/300/100', '50/100/50'],
  },
  current_residence_address: {
    description: 'Street address.',
    maxLength: 300,
    examples: ['123 Main St', '456 Oak Ave Apt 2'],
  },
  current_residence_city: {
    description: 'City.',
    maxLength: 100,
    examples: ['Austin', 'Round Rock'],
  },
  current_residence_state: {
    description: 'Two-letter US state or territory code, any case (TX, tx, PR).',
    maxLength: 2,
    format: 'us-state',
    examples: ['TX', 'tx'],
  },
  current_residence_zip: {
    description:
      'ZIP (5 digits) or ZIP+4 (12345-6789, or 9 digits without the dash). A JSON number is accepted; since spreadsheets drop leading zeros, a number of up to 5 digits is zero-padded to 5 (7030 becomes 07030) and one of 8 digits to a 9-digit ZIP+4.',
    maxLength: 10,
    format: 'us-zip',
    examples: ['78701', '78664-1234'],
  },
  date_of_birth: {
    description:
      'A real date in the past: YYYY-MM-DD (recommended) or MM/DD/YYYY. Stored as YYYY-MM-DD.',
    maxLength: 10,
    format: 'past-date',
    examples: ['1985-04-12', '07/23/1979'],
  },
  gender: canonicalField(['female', 'male']),
  marital_status: canonicalField(['married', 'single']),
  credit_rating: canonicalField(['good', 'excellent']),
  tcpa_opt_in_token: {
    description:
      'The consent token from your consent provider: a TrustedForm certificate URL or id, a Jornaya LeadiD token, or an equivalent token.',
    maxLength: 500,
    examples: ['a1b2c3d4-e5f6-4789-abcd-ef0123456789', 'f9e8d7c6-b5a4-4321-9876-543210fedcba'],
  },
  tcpa_opt_in_url: {
    description: 'The http(s) URL of the page where the lead gave consent.',
    maxLength: 2048,
    format: 'http-url',
    examples: ['https://quotes.example.com/auto?step=consent', 'https://quotes.example.com/home'],
  },
  external_id: {
    description: "Optional: your own id for the lead, echoed in webhooks' lead_originators.",
    maxLength: 200,
    examples: ['vendor-lead-88213', 'vendor-lead-88214'],
  },
};

/**
 * Something visible: a value made only of whitespace or invisible format
 * characters (zero-width space, BOM, bidi marks) is blank, hence `required`.
 * Validation trims those from both ends first (lead.validation.ts), so this is
 * what the schema says for its other readers (OpenAPI).
 */
export const NOT_BLANK_PATTERN = '[^\\s\\p{Z}\\p{Cf}]';

function fieldSchema(spec: FieldSpec) {
  return {
    type: 'string',
    description: spec.description,
    minLength: 1,
    maxLength: spec.maxLength,
    pattern: NOT_BLANK_PATTERN,
    ...(spec.format ? { format: spec.format } : {}),
    examples: [...spec.examples],
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
  description:
    'The 16 fields are required and must not be blank: a value made only of whitespace or invisible characters (zero-width space, BOM, other format characters) is reported as required. Whitespace and invisible characters around a value are trimmed (gender, marital_status and credit_rating are also kept as sent). Fields not listed here are kept with the lead as its extra data.',
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
