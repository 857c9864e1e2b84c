import type { FromSchema } from 'json-schema-to-ts';
import {
  closedObjectSchema,
  listEnvelopeSchema,
  prefixedIdSchema,
  timestampSchema,
} from './common.schema.js';

/**
 * Named API keys (docs/api.md, "API keys"): an account has up to API_KEYS_PER_ACCOUNT
 * active keys, each with a name its owner gave it. The key itself is shown once,
 * in the answer that made it; lists show its prefix.
 */

/** How many active (unrevoked) keys an account may hold at once. */
export const API_KEYS_PER_ACCOUNT = 50;

const apiKeyNameSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description:
    'What the key is for (e.g. `Zapier`), 1 to 100 characters once trimmed; leading and trailing blanks are dropped.',
  examples: ['Zapier'],
} as const;

/** `POST /account/api_keys`. */
export const apiKeyCreateSchema = {
  title: 'ApiKeyCreate',
  type: 'object',
  required: ['name'],
  properties: { name: apiKeyNameSchema },
  additionalProperties: false,
} as const;

const apiKeyProperties = {
  id: prefixedIdSchema('key'),
  name: { type: 'string', examples: ['Zapier'] },
  prefix: {
    type: 'string',
    readOnly: true,
    description: 'The first characters of the key, safe to show.',
    examples: ['lh_AbCdEf'],
  },
  created_at: timestampSchema,
  last_used_at: {
    ...timestampSchema,
    type: ['string', 'null'],
    description:
      'About when the key last authenticated a request: recorded at most once a minute per key, so it may lag by up to a minute; null if never used.',
  },
} as const;

/** A key as lists show it: never the key itself nor its hash. */
export const apiKeySchema = { title: 'ApiKey', ...closedObjectSchema(apiKeyProperties) } as const;

/** What `POST /account/api_keys` answers: the key, shown this once. */
export const apiKeyWithSecretSchema = {
  title: 'ApiKeyWithSecret',
  ...closedObjectSchema({
    ...apiKeyProperties,
    api_key: {
      type: 'string',
      readOnly: true,
      description: 'The API key. Shown only in this answer; store it now.',
      examples: ['lh_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg'],
    },
  }),
} as const;

export const apiKeyListSchema = listEnvelopeSchema('ApiKeyList', apiKeySchema);

export type ApiKeyCreate = FromSchema<typeof apiKeyCreateSchema>;
export type ApiKey = FromSchema<typeof apiKeySchema>;
export type ApiKeyWithSecret = FromSchema<typeof apiKeyWithSecretSchema>;
export type ApiKeyList = FromSchema<typeof apiKeyListSchema>;
