import {
  closedObjectSchema,
  listEnvelopeSchema,
  listQuerySchema,
  prefixedIdSchema,
  timestampSchema,
} from './common.schema.js';

/**
 * The do-not-contact list as the management API shows it (docs/api.md,
 * "Do-not-contact"): one entry per phone of the account, in E.164. Phones are
 * written in any notation intake accepts and normalised the same way.
 */

/** Why a phone is on the list: a STOP reply, added by hand, a bulk import, a complaint. */
export const SUPPRESSION_REASONS = ['opted_out', 'manual', 'imported', 'complaint'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** How many phones one import may carry (JSON items or CSV rows). */
export const SUPPRESSION_IMPORT_MAX_ROWS = 10_000;

const phoneInputSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description:
    'A phone number in any notation intake accepts: US/Canada numbers as written, others with a leading `+`. Stored in E.164.',
  examples: ['+15125550100', '(512) 555-0100'],
} as const;

/** `POST /suppressions`. */
export const suppressionCreateSchema = {
  title: 'SuppressionCreate',
  type: 'object',
  required: ['phone'],
  properties: {
    phone: phoneInputSchema,
    reason: {
      type: 'string',
      enum: ['manual', 'complaint'],
      default: 'manual',
      description:
        '`manual` (the default) or `complaint`. `opted_out` is set only by a STOP, `imported` only by an import.',
    },
    note: {
      type: 'string',
      maxLength: 1000,
      description: 'Free text kept with the entry (who asked, the ticket).',
      examples: ['Called support on 2026-11-20, ticket 4812'],
    },
  },
  additionalProperties: false,
} as const;

/** `POST /suppressions/import` as JSON (the CSV form is described on the operation). */
export const suppressionImportSchema = {
  title: 'SuppressionImport',
  type: 'object',
  required: ['phones'],
  properties: {
    phones: {
      type: 'array',
      minItems: 1,
      maxItems: SUPPRESSION_IMPORT_MAX_ROWS,
      items: phoneInputSchema,
      description: `1 to ${SUPPRESSION_IMPORT_MAX_ROWS} phones, each in any notation intake accepts.`,
    },
  },
  additionalProperties: false,
} as const;

export const suppressionImportResultSchema = {
  title: 'SuppressionImportResult',
  ...closedObjectSchema({
    import_id: {
      ...prefixedIdSchema('imp'),
      description: 'Carried by every entry this import added (`import_id`).',
    },
    imported: {
      type: 'integer',
      minimum: 0,
      description: 'Phones added to the list by this import.',
    },
    already_listed: {
      type: 'integer',
      minimum: 0,
      description:
        'Rows whose phone was already listed (its first entry is kept) or repeats an earlier row of the same import.',
    },
  }),
} as const;

const nullableId = (prefix: string, description: string) =>
  ({
    type: ['string', 'null'],
    description,
    examples: [`${prefix}_01jdq3v3m5a8f0k2x9b7c6d4e1`],
  }) as const;

export const suppressionSchema = {
  title: 'Suppression',
  ...closedObjectSchema({
    phone: { type: 'string', description: 'E.164.', examples: ['+15125550100'] },
    reason: { type: 'string', enum: SUPPRESSION_REASONS },
    lead_id: nullableId('lead', 'The lead whose STOP reply added it (opted_out).'),
    activity_id: nullableId('act', 'The STOP reply (opted_out).'),
    api_key_id: nullableId(
      'key',
      'The API key that added it by hand (manual, complaint) or imported it.',
    ),
    import_id: nullableId('imp', 'The import that added it (imported).'),
    note: { type: ['string', 'null'], description: 'The note given when it was added by hand.' },
    created_at: timestampSchema,
  }),
} as const;

export const suppressionListSchema = listEnvelopeSchema('SuppressionList', suppressionSchema);

/** `GET /suppressions`: a page, ordered by phone, optionally one reason only. */
export const suppressionListQuerySchema = {
  type: 'object',
  properties: {
    ...listQuerySchema.properties,
    cursor: {
      ...listQuerySchema.properties.cursor,
      description: "The previous page's next_cursor (the last phone it showed).",
    },
    reason: {
      type: 'string',
      enum: SUPPRESSION_REASONS,
      description: 'Only the entries with this reason.',
    },
    import_id: {
      ...prefixedIdSchema('imp'),
      description: "Only the entries this import added (its answer's import_id).",
    },
  },
} as const;

/** A phone taken off the list: who did, when, and the entry it had. */
export const suppressionRemovalSchema = {
  title: 'SuppressionRemoval',
  ...closedObjectSchema({
    id: prefixedIdSchema('sprm'),
    phone: { type: 'string', description: 'E.164.', examples: ['+15125550100'] },
    reason: {
      type: 'string',
      enum: SUPPRESSION_REASONS,
      description: 'The reason the removed entry had.',
    },
    listed_at: { ...timestampSchema, description: 'When the removed entry was added.' },
    removed_at: timestampSchema,
    removed_by_api_key_id: {
      type: 'string',
      description: 'The API key that removed it.',
      examples: ['key_01jdq3v3m5a8f0k2x9b7c6d4e1'],
    },
  }),
} as const;

export const suppressionRemovalListSchema = listEnvelopeSchema(
  'SuppressionRemovalList',
  suppressionRemovalSchema,
);

/** `GET /suppressions/removals`: a page, newest first, optionally of one phone. */
export const suppressionRemovalListQuerySchema = {
  type: 'object',
  properties: {
    ...listQuerySchema.properties,
    phone: {
      ...phoneInputSchema,
      description: 'Only the removals of this phone (any notation intake accepts).',
    },
  },
} as const;
