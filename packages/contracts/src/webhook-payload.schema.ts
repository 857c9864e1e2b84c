import type { FromSchema } from 'json-schema-to-ts';
import { closedObjectSchema } from './api/common.schema.js';

/**
 * The body of every activity webhook (docs/webhooks.md, "Payload"): the specification's fields,
 * plus the flat fields that subscribers of the product leadhook replaces (Mav)
 * already read. `webhook-id` carries `id`; receivers deduplicate on it and order
 * by `occurred_at`. Additional properties are refused here so that a field added
 * to the payload is added to this schema (and so to the OpenAPI document) too.
 */
const idRef = { type: 'string', minLength: 1 } as const;
const named = closedObjectSchema({ id: idRef, name: { type: 'string' } });
const timestamp = { type: 'string', format: 'date-time' } as const;

export const webhookPayloadSchema = {
  title: 'ActivityWebhook',
  type: 'object',
  required: [
    'id',
    'activity_type',
    'activity_label',
    'occurred_at',
    'lead_originators',
    'lead_id',
    'marketing_source',
    'playbook',
    'data',
    'activity_play_id',
    'activity_note',
    'activity_created_at',
    'lead_first_name',
    'lead_last_name',
    'lead_email',
    'lead_opted_out',
    'lead_created_at',
    'lead_additional_info',
  ],
  properties: {
    id: { type: 'string', pattern: '^act_', description: 'The activity id; also `webhook-id`.' },
    activity_type: { type: 'string', enum: ['event', 'outcome'] },
    activity_label: { type: 'string', minLength: 1, examples: ['first_message_sent'] },
    occurred_at: timestamp,
    lead_originators: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      description:
        'leadhook itself (key: the lead id), then the marketing source at acceptance with the seller\u2019s external_id, when one was sent.',
      items: closedObjectSchema({ origin: { type: 'string' }, key: { type: 'string' } }),
    },
    lead_id: { type: 'string', pattern: '^lead_' },
    marketing_source: named,
    playbook: named,
    data: { type: 'object', description: 'Label-specific details (e.g. `body`, `until`).' },
    activity_play_id: {
      type: ['string', 'null'],
      description: 'The enrollment (play) id, or null when the lead has none.',
    },
    activity_note: { type: 'string', description: 'A short human sentence.' },
    activity_created_at: { ...timestamp, description: 'Equal to occurred_at.' },
    lead_first_name: { type: 'string' },
    lead_last_name: { type: 'string' },
    lead_email: { type: 'string' },
    lead_opted_out: { type: 'boolean' },
    lead_created_at: timestamp,
    lead_additional_info: {
      type: 'object',
      description: 'The extra fields the seller sent with the lead, as sent.',
    },
  },
  additionalProperties: false,
} as const;

export type WebhookPayload = FromSchema<typeof webhookPayloadSchema>;
