import type { FromSchema } from 'json-schema-to-ts';
import { ACTIVITY_TYPES } from '../activity-catalog.js';
import { webhookPayloadSchema } from '../webhook-payload.schema.js';
import {
  closedObjectSchema,
  listEnvelopeSchema,
  prefixedIdSchema,
  timestampSchema,
} from './common.schema.js';
import { subscriptionUrlSchema } from './subscription.schema.js';

/**
 * REST hooks (docs/api.md, "REST hooks"): what automation platforms (Zapier,
 * Make, n8n) call to subscribe and unsubscribe a URL. A hook is an activity
 * subscription (created_via `hooks`): the same rows, delivery, signing, retries
 * and URL rules; a 410 Gone from its target deletes it.
 */

function hookLabelsSchema(kind: 'event' | 'outcome') {
  return {
    type: 'array',
    maxItems: 100,
    uniqueItems: true,
    items: { type: 'string', minLength: 1, maxLength: 100 },
    description: `${kind === 'event' ? 'Event' : 'Outcome'} labels of GET /activity_catalog, \`["*"]\` for every ${kind}, or \`[]\` for none. Events and outcomes together name at least one label.`,
    examples: kind === 'event' ? [['message_received']] : [['*']],
  } as const;
}

/** `POST /hooks`. */
export const hookCreateSchema = {
  title: 'HookCreate',
  type: 'object',
  required: ['target_url'],
  properties: {
    target_url: subscriptionUrlSchema,
    events: { ...hookLabelsSchema('event'), default: [] },
    outcomes: { ...hookLabelsSchema('outcome'), default: [] },
    playbook_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description:
        "Only this playbook's activities; without it, every playbook of the account (account-wide).",
      examples: ['pb_01jdq3v3m5a8f0k2x9b7c6d4e1'],
    },
  },
  additionalProperties: false,
} as const;

const hookProperties = {
  id: prefixedIdSchema('sub'),
  target_url: { type: 'string' },
  events: { type: 'array', items: { type: 'string' } },
  outcomes: { type: 'array', items: { type: 'string' } },
  playbook_id: {
    type: ['string', 'null'],
    description: 'The playbook whose activities are sent; null for every playbook of the account.',
  },
  enabled: {
    type: 'boolean',
    description: 'false after five days of failed deliveries (see GET /subscriptions/{id}).',
  },
  created_at: timestampSchema,
} as const;

/** A hook as lists show it. */
export const hookSchema = { title: 'Hook', ...closedObjectSchema(hookProperties) } as const;

/** What `POST /hooks` answers: the hook and its signing secret, shown only there. */
export const hookWithSecretSchema = {
  title: 'HookWithSecret',
  ...closedObjectSchema({
    ...hookProperties,
    secret: {
      type: 'string',
      pattern: '^whsec_',
      readOnly: true,
      description:
        'The Standard Webhooks signing secret of the deliveries to this hook, shown only here (verifying is optional for a platform that does not).',
    },
  }),
} as const;

export const hookListSchema = listEnvelopeSchema('HookList', hookSchema);

/** Query of `GET /hooks/samples`. */
export const hookSamplesQuerySchema = {
  type: 'object',
  required: ['label'],
  properties: {
    label: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'A catalog label (GET /activity_catalog); an unknown one is a 422.',
    },
    type: {
      type: 'string',
      enum: ACTIVITY_TYPES,
      description: 'event or outcome, for a label that is both (`interested`); without it, either.',
    },
  },
} as const;

/** The body of a webhook, as a component of the OpenAPI document. */
export const activityWebhookSchema = webhookPayloadSchema;

/** What `GET /hooks/samples` answers: up to 3 webhook bodies, newest first. */
export const hookSamplesSchema = {
  title: 'HookSamples',
  ...closedObjectSchema({
    data: {
      type: 'array',
      maxItems: 3,
      items: webhookPayloadSchema,
      description:
        "Webhook bodies exactly as deliveries carry them: the account's latest activities of the label, or one synthetic example when it has none.",
    },
  }),
} as const;

export type HookCreate = FromSchema<typeof hookCreateSchema>;
export type Hook = FromSchema<typeof hookSchema>;
export type HookWithSecret = FromSchema<typeof hookWithSecretSchema>;
export type HookList = FromSchema<typeof hookListSchema>;
export type HookSamples = FromSchema<typeof hookSamplesSchema>;
