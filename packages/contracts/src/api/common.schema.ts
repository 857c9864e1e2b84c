/**
 * Building blocks shared by every management API schema (docs/api.md): the error
 * envelope, list envelopes, ids and timestamps. Plain JSON Schema objects `as const`:
 * ajv validates with them, FromSchema derives the types, OpenAPI publishes them.
 */

/**
 * An object of exactly these properties, every one required (keys in the
 * order given; `required` lists them in the same order).
 */
export function closedObjectSchema<const Properties extends Record<string, unknown>>(
  properties: Properties,
) {
  return {
    type: 'object',
    required: Object.keys(properties) as (keyof Properties & string)[],
    properties,
    additionalProperties: false,
  } as const;
}

/** One problem of a request: `field` is a dotted path (`steps[2].template`), or null for the whole body. */
export const errorDetailSchema = closedObjectSchema({
  field: { type: ['string', 'null'], examples: ['steps[0].template'] },
  code: {
    type: 'string',
    description:
      'required | invalid | too_long | unknown_field | read_only | unknown_placeholder | invalid_template | unknown_label | reserved_label | no_labels | private_target | not_found | …',
    examples: ['required'],
  },
  message: { type: 'string' },
});

/** The envelope of every error answer of the management API. */
export const errorEnvelopeSchema = {
  title: 'Error',
  ...closedObjectSchema({
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: {
          type: 'string',
          description:
            'unauthorized | not_found | validation_failed | malformed_body | playbook_in_use | outcome_exists | unsupported_media_type | payload_too_large | service_unavailable | internal_error',
          examples: ['validation_failed'],
        },
        message: { type: 'string' },
        details: { type: 'array', items: errorDetailSchema },
      },
      additionalProperties: false,
    },
  }),
} as const;

/** A prefixed, time-sortable id (`pb_01jd…`). */
export const idSchema = {
  type: 'string',
  pattern: '^[a-z]+_[0-9a-z]{26}$',
  readOnly: true,
  examples: ['pb_01jdq3v3m5a8f0k2x9b7c6d4e1'],
} as const;

/** An id whose example carries `prefix`, the prefix of the resource's ids (`lead` → `lead_01jd…`). */
export function prefixedIdSchema<const Prefix extends string>(prefix: Prefix) {
  return { ...idSchema, examples: [`${prefix}_01jdq3v3m5a8f0k2x9b7c6d4e1`] } as const;
}

/** An ISO 8601 instant set by the server. */
export const timestampSchema = {
  type: 'string',
  format: 'date-time',
  readOnly: true,
  examples: ['2026-11-22T15:04:05.123Z'],
} as const;

/** The name an account, source or playbook is given: 1 to 200 characters, not only blanks. */
export const nameSchema = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;

/**
 * A named resource as the API returns it (account, marketing source, playbook):
 * `id` and `name` first, its own fields, then when it was created and last updated.
 */
export function namedResourceSchema<
  const Title extends string,
  const Properties extends Record<string, unknown>,
>(title: Title, properties: Properties) {
  return {
    title,
    ...closedObjectSchema({
      id: idSchema,
      name: { type: 'string' },
      ...properties,
      created_at: timestampSchema,
      updated_at: timestampSchema,
    }),
  } as const;
}

/** Query of every list: keyset pagination, newest first. */
export const listQuerySchema = {
  type: 'object',
  properties: {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
      description: 'Page size, 1–100.',
    },
    cursor: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: "The previous page's next_cursor.",
    },
  },
} as const;

/** `{data: [...], next_cursor}`; next_cursor is null on the last page. */
export function listEnvelopeSchema<const Item>(title: string, item: Item) {
  return {
    title,
    ...closedObjectSchema({
      data: { type: 'array', items: item },
      next_cursor: {
        type: ['string', 'null'],
        description: 'Pass as `cursor` to get the next page; null on the last page.',
      },
    }),
  } as const;
}

/** Re-exported so services derive types from these schemas without their own copy of the library. */
export type { FromSchema, JSONSchema } from 'json-schema-to-ts';
