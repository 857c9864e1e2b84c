import type { FromSchema } from 'json-schema-to-ts';
import { closedObjectSchema } from './common.schema.js';

/** `GET /marketing_sources/{id}/integration`: everything a seller needs, built for one source. */
export const integrationInstructionsSchema = {
  title: 'IntegrationInstructions',
  type: 'object',
  required: [
    'marketing_source_id',
    'post_url',
    'method',
    'content_types',
    'headers',
    'fields',
    'extra_fields',
    'responses',
    'examples',
  ],
  properties: {
    marketing_source_id: { type: 'string' },
    post_url: { type: 'string', format: 'uri' },
    method: { type: 'string', const: 'POST' },
    content_types: {
      type: 'array',
      items: { type: 'string', enum: ['application/json', 'application/x-www-form-urlencoded'] },
    },
    headers: {
      type: 'array',
      items: closedObjectSchema({
        name: { type: 'string' },
        required: { type: 'boolean' },
        description: { type: 'string' },
      }),
    },
    fields: {
      type: 'array',
      items: closedObjectSchema({
        name: { type: 'string' },
        required: { type: 'boolean' },
        type: { type: 'string', const: 'string' },
        format: { type: ['string', 'null'] },
        description: { type: 'string' },
        example: { type: 'string' },
        max_length: { type: 'integer' },
      }),
    },
    extra_fields: closedObjectSchema({
      accepted: { type: 'boolean' },
      max_fields: { type: 'integer' },
      max_name_length: { type: 'integer' },
      max_value_bytes: { type: 'integer' },
      description: { type: 'string' },
    }),
    responses: {
      type: 'array',
      items: {
        type: 'object',
        required: ['case', 'status', 'body'],
        properties: {
          case: { type: 'string' },
          status: { type: 'integer' },
          body: { type: 'object' },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
        },
        additionalProperties: false,
      },
    },
    examples: closedObjectSchema({
      curl_json: { type: 'string' },
      curl_form: { type: 'string' },
      html_form: { type: 'string' },
    }),
  },
  additionalProperties: false,
} as const;

export type IntegrationInstructions = FromSchema<typeof integrationInstructionsSchema>;
