import type { FromSchema } from 'json-schema-to-ts';
import { closedObjectSchema, namedResourceSchema, nameSchema } from './common.schema.js';

const duplicateWindowDays = {
  type: ['integer', 'null'],
  minimum: 1,
  maximum: 365,
  description:
    'How long the same phone counts as a duplicate in this account, in days; null = the deployment default (DUPLICATE_WINDOW_DAYS).',
  examples: [30],
} as const;

/** The authenticated account (`GET /account`). */
export const accountSchema = namedResourceSchema('Account', {
  duplicate_window_days: duplicateWindowDays,
  api_key_prefix: {
    type: ['string', 'null'],
    readOnly: true,
    description: 'The first characters of the newest active API key, safe to show.',
    examples: ['lh_AbCdEf'],
  },
});

/** `PATCH /account`. */
export const accountUpdateSchema = {
  title: 'AccountUpdate',
  type: 'object',
  properties: {
    name: nameSchema,
    duplicate_window_days: duplicateWindowDays,
  },
  additionalProperties: false,
} as const;

/** `POST /account/api_keys/rotate`: the new key, shown this once. */
export const apiKeyRotationSchema = {
  title: 'ApiKeyRotation',
  ...closedObjectSchema({
    api_key: {
      type: 'string',
      description: 'The new API key. It is not shown again; the previous key no longer works.',
    },
    api_key_prefix: { type: 'string', examples: ['lh_AbCdEf'] },
  }),
} as const;

export type Account = FromSchema<typeof accountSchema>;
export type AccountUpdate = FromSchema<typeof accountUpdateSchema>;
export type ApiKeyRotation = FromSchema<typeof apiKeyRotationSchema>;
