import type { FromSchema } from 'json-schema-to-ts';
import { ACTIVITY_TYPES } from '../activity-catalog.js';
import {
  closedObjectSchema,
  idSchema,
  listEnvelopeSchema,
  listQuerySchema,
  prefixedIdSchema,
  timestampSchema,
} from './common.schema.js';
import { rangeBoundSchema } from './stats.schema.js';

/**
 * Activity subscriptions and their deliveries as the management API shows them
 * (docs/api.md and docs/webhooks.md; Svix's endpoint → message destination → attempt). Which
 * labels a list may hold is checked against the activity catalog by the API (the
 * 422 names the unknown label); the schema bounds the shape.
 */

const nullableTimestamp = { ...timestampSchema, type: ['string', 'null'] } as const;

/** Where deliveries go. Private and loopback targets are refused unless the operator allows them. */
export const subscriptionUrlSchema = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  // http(s) only; the scheme is case-insensitive.
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description:
    'An http(s) URL whose host is written as it is (no percent-escapes or numeric IPv4 shorthands, no missing host as in `http:///x`; else 422 `invalid`). A host that is a literal loopback, private, link-local, metadata or unspecified address, an IPv6 address outside global unicast 2000::/3, or `localhost`, is refused (422 `private_target`) unless the operator allows private targets; a name resolving to one is refused at delivery time.',
  examples: ['https://crm.example.com/hooks/leadhook'],
} as const;

function labelsSchema(kind: 'event' | 'outcome') {
  return {
    type: 'array',
    maxItems: 100,
    uniqueItems: true,
    items: { type: 'string', minLength: 1, maxLength: 100 },
    description: `${kind === 'event' ? 'Event' : 'Outcome'} labels of GET /activity_catalog, \`["*"]\` for every ${kind}, or \`[]\` for none. Events and outcomes together name at least one label.`,
    examples: kind === 'event' ? [['first_message_sent', 'message_received'], ['*']] : [['*']],
  } as const;
}

const eventsSchema = labelsSchema('event');
const outcomesSchema = labelsSchema('outcome');

const enabledSchema = {
  type: 'boolean',
  description:
    'false stops deliveries. Setting it back to true clears disabled_code, disabled_reason, disabled_at and failing_since.',
} as const;

/** `POST /playbooks/{id}/subscriptions` and `POST /subscriptions` (account-wide). */
export const subscriptionCreateSchema = {
  title: 'SubscriptionCreate',
  type: 'object',
  required: ['url'],
  properties: {
    url: subscriptionUrlSchema,
    events: { ...eventsSchema, default: [] },
    outcomes: { ...outcomesSchema, default: [] },
    enabled: { ...enabledSchema, default: true },
  },
  additionalProperties: false,
} as const;

/** `PATCH /subscriptions/{id}`: the given fields replace the stored ones. */
export const subscriptionUpdateSchema = {
  title: 'SubscriptionUpdate',
  type: 'object',
  properties: {
    url: subscriptionUrlSchema,
    events: eventsSchema,
    outcomes: outcomesSchema,
    enabled: enabledSchema,
  },
  additionalProperties: false,
} as const;

const subscriptionProperties = {
  id: prefixedIdSchema('sub'),
  playbook_id: {
    type: ['string', 'null'],
    description: 'The playbook whose activities are sent; null for every playbook of the account.',
    examples: ['pb_01jdq3v3m5a8f0k2x9b7c6d4e1'],
  },
  url: { type: 'string' },
  events: { type: 'array', items: { type: 'string' } },
  outcomes: { type: 'array', items: { type: 'string' } },
  enabled: { type: 'boolean' },
  disabled_reason: {
    type: ['string', 'null'],
    readOnly: true,
    description:
      'Why the subscription is disabled: `manual` (the account set enabled false), or what the webhook worker saw (a 410 Gone, five days of failures); null while enabled.',
  },
  disabled_code: {
    type: ['string', 'null'],
    enum: ['manual', 'gone', 'failing', null],
    readOnly: true,
    description:
      'Why the subscription is disabled, as a code to branch on: `manual` (the account set enabled false), `gone` (its URL answered 410 Gone), `failing` (five days of failures); null while enabled. disabled_reason says it in words.',
  },
  disabled_at: nullableTimestamp,
  failing_since: {
    ...nullableTimestamp,
    description: 'The first failure with no 2xx since; five days of it disables the subscription.',
  },
  previous_secret_expires_at: {
    ...nullableTimestamp,
    description:
      'While a rotation is in progress, deliveries are also signed with the previous secret until then.',
  },
  created_via: {
    type: 'string',
    enum: ['api', 'hooks'],
    readOnly: true,
    description:
      '`hooks` for a REST hook (POST /hooks, which lists and deletes only those; a 410 Gone from its URL deletes it), `api` otherwise (a 410 Gone disables it).',
  },
  created_at: timestampSchema,
  updated_at: timestampSchema,
} as const;

/** A subscription as reads, lists and updates show it: never its secret. */
export const subscriptionSchema = {
  title: 'Subscription',
  ...closedObjectSchema(subscriptionProperties),
} as const;

/** What create and rotate_secret answer: the subscription and its signing secret, shown only there. */
export const subscriptionWithSecretSchema = {
  title: 'SubscriptionWithSecret',
  ...closedObjectSchema({
    ...subscriptionProperties,
    secret: {
      type: 'string',
      pattern: '^whsec_',
      readOnly: true,
      description:
        'The Standard Webhooks signing secret (`whsec_` + base64 key). Shown only in the answers of create and rotate_secret.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    },
  }),
} as const;

export const subscriptionListSchema = listEnvelopeSchema('SubscriptionList', subscriptionSchema);

/**
 * A delivery's status as the API shows it. The store keeps pending, succeeded and
 * failed; `queued` is a pending delivery that is not its chain's head (it waits
 * behind an earlier delivery of the same subscription and lead), computed at read.
 */
export const DELIVERY_STATUSES = ['pending', 'queued', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const DELIVERY_STATUS_MEANING =
  "`pending`: being tried, or due for its next try at next_attempt_at. `queued`: waits behind an earlier delivery of the same lead to the same subscription (named by waiting_for), so that a subscriber gets a lead's activities in order; it is sent once that one succeeds or finally fails. `succeeded`: a try got a 2xx. `failed`: every try of the retry schedule failed (redeliver sends it again).";

/** One HTTP try of a delivery. */
export const deliveryAttemptSchema = {
  title: 'DeliveryAttempt',
  ...closedObjectSchema({
    id: prefixedIdSchema('att'),
    attempted_at: timestampSchema,
    status_code: {
      type: ['integer', 'null'],
      description: "The subscriber's HTTP status; null when no answer came (timeout, refused).",
    },
    duration_ms: { type: 'integer', minimum: 0, description: 'Latency of the try.' },
    error: { type: ['string', 'null'], description: 'What went wrong, when it did.' },
    response_body: {
      type: ['string', 'null'],
      description: "The start of the subscriber's answer.",
    },
    next_attempt_at: {
      ...nullableTimestamp,
      description:
        'When the try after this one happened or is due; null when this try was the last.',
    },
  }),
} as const;

/** One activity sent to one subscription (Svix: message destination), with its tries, oldest first. */
export const deliverySchema = {
  title: 'Delivery',
  ...closedObjectSchema({
    id: prefixedIdSchema('dlv'),
    subscription_id: idSchema,
    activity_id: {
      ...idSchema,
      description: 'The activity sent: also the `webhook-id` header of every try.',
      examples: ['act_01jdq3v3m5a8f0k2x9b7c6d4e1'],
    },
    activity_type: { type: 'string', enum: ACTIVITY_TYPES },
    activity_label: { type: 'string', examples: ['first_message_sent'] },
    lead_id: idSchema,
    status: { type: 'string', enum: DELIVERY_STATUSES, description: DELIVERY_STATUS_MEANING },
    waiting_for: {
      type: ['string', 'null'],
      description:
        'While `queued`: the id of the delivery it waits behind (the earliest unfinished delivery of the same lead to the same subscription, the one being tried); null otherwise.',
      examples: [null, 'dlv_01jdq3v3m5a8f0k2x9b7c6d4e0'],
    },
    attempt_count: {
      type: 'integer',
      minimum: 0,
      description:
        'How many tries were made: the number of `attempts` listed. A redelivery keeps counting from there (its earlier tries stay listed).',
    },
    next_attempt_at: {
      ...nullableTimestamp,
      description:
        'When the next try is due while pending; null once succeeded or failed, and while queued (it goes once the delivery it waits for is done).',
    },
    created_at: timestampSchema,
    updated_at: timestampSchema,
    attempts: { type: 'array', items: deliveryAttemptSchema },
  }),
} as const;

export const deliveryListSchema = listEnvelopeSchema('DeliveryList', deliverySchema);

export const deliveryStatusFilterSchema = {
  type: 'string',
  enum: DELIVERY_STATUSES,
  description: `Only the deliveries in this status. ${DELIVERY_STATUS_MEANING}`,
} as const;

/** Query of `GET /subscriptions`: pagination, and which subscriptions. */
export const subscriptionListQuerySchema = {
  type: 'object',
  properties: {
    ...listQuerySchema.properties,
    scope: {
      type: 'string',
      enum: ['all', 'account'],
      description:
        '`all` (the default): account-wide and per-playbook subscriptions alike; `account`: only the account-wide ones (`playbook_id` null, REST hooks included).',
    },
  },
} as const;

/** Query of `GET /subscriptions/{id}/deliveries`: the bounds are those of `GET /leads`. */
export const deliveryListQuerySchema = {
  type: 'object',
  properties: {
    ...listQuerySchema.properties,
    status: deliveryStatusFilterSchema,
    from: rangeBoundSchema(
      'Only deliveries created from this day (YYYY-MM-DD, from 00:00 UTC) or instant (ISO 8601 date-time) on: `created_at`. No default: every delivery kept.',
      '2026-11-01',
    ),
    to: rangeBoundSchema(
      'Only deliveries created up to this day (YYYY-MM-DD, inclusive: up to 24:00 UTC) or instant (ISO 8601 date-time, inclusive). Not before `from`. No default.',
      '2026-11-30',
    ),
  },
} as const;

/** `POST /subscriptions/{id}/test`: what the subscriber answered to a signed test delivery. */
export const subscriptionTestResultSchema = {
  title: 'SubscriptionTestResult',
  ...closedObjectSchema({
    ok: { type: 'boolean', description: 'A 2xx within the timeout.' },
    status_code: { type: ['integer', 'null'], description: 'null when no answer came.' },
    latency_ms: { type: 'integer', minimum: 0 },
    error: { type: ['string', 'null'] },
    response_body: {
      type: ['string', 'null'],
      description: "The start of the subscriber's answer.",
    },
  }),
} as const;

/** `POST /subscriptions/{id}/recover`. */
export const subscriptionRecoverSchema = {
  title: 'SubscriptionRecover',
  ...closedObjectSchema({
    since: {
      type: 'string',
      format: 'date-time',
      description: 'Every failed delivery created at or after this instant is sent again.',
      examples: ['2026-11-20T00:00:00Z'],
    },
  }),
} as const;

export const subscriptionRecoverResultSchema = {
  title: 'SubscriptionRecoverResult',
  ...closedObjectSchema({
    recovered: {
      type: 'integer',
      minimum: 0,
      description: 'How many failed deliveries were set to be sent again.',
    },
  }),
} as const;

export type SubscriptionCreate = FromSchema<typeof subscriptionCreateSchema>;
export type SubscriptionUpdate = FromSchema<typeof subscriptionUpdateSchema>;
export type Subscription = FromSchema<typeof subscriptionSchema>;
export type SubscriptionWithSecret = FromSchema<typeof subscriptionWithSecretSchema>;
export type SubscriptionList = FromSchema<typeof subscriptionListSchema>;
export type DeliveryAttempt = FromSchema<typeof deliveryAttemptSchema>;
export type Delivery = FromSchema<typeof deliverySchema>;
export type DeliveryList = FromSchema<typeof deliveryListSchema>;
export type SubscriptionTestResult = FromSchema<typeof subscriptionTestResultSchema>;
export type SubscriptionRecover = FromSchema<typeof subscriptionRecoverSchema>;
export type SubscriptionRecoverResult = FromSchema<typeof subscriptionRecoverResultSchema>;
