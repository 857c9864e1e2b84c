import type { FromSchema } from 'json-schema-to-ts';
import { OUTCOME_LABELS } from '../activity-catalog.js';
import { CONSENT_PROVIDERS } from '../consent-provider.js';
import { activitySchema } from './activity.schema.js';
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
 * Leads as the management API shows them (docs/api.md, "Leads"): `GET /leads` lists them,
 * `GET /leads/{id}` adds the activity timeline and the duplicate attributions.
 * Leads are created only by intake (docs/intake.md); the API reads them.
 */

/** `{id, name}` of an object a lead points at. */
const referenceSchema = (description: string) =>
  ({
    type: 'object',
    required: ['id', 'name'],
    properties: { id: idSchema, name: { type: 'string' } },
    additionalProperties: false,
    description,
  }) as const;

export const PLAY_STATUSES = ['active', 'completed', 'stopped'] as const;

/** The lead's enrollment in its playbook; its id is the webhooks' activity_play_id. */
export const playSchema = {
  title: 'Play',
  ...closedObjectSchema({
    id: prefixedIdSchema('play'),
    status: { type: 'string', enum: PLAY_STATUSES },
    current_step: {
      type: 'integer',
      minimum: 0,
      description:
        "Index of the next step to run (0-based); the playbook's step count when none is left.",
    },
    next_run_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the next step is due; null when none is scheduled.',
    },
  }),
} as const;

/** What the seller attested (the TCPA token and URL) and what intake observed. */
export const consentEvidenceSchema = {
  title: 'ConsentEvidence',
  ...closedObjectSchema({
    tcpa_opt_in_token: { type: 'string' },
    provider: {
      type: ['string', 'null'],
      enum: [...CONSENT_PROVIDERS, null],
      description:
        "The lead-verification provider the token's shape showed when intake accepted the lead, kept with the lead: a TrustedForm certificate (its URL or 40-hex id) or a Jornaya LeadiD (a UUID); null when neither.",
    },
    tcpa_opt_in_url: { type: 'string' },
    ip: {
      type: ['string', 'null'],
      description: 'The address the submission came from, as intake saw it.',
    },
    user_agent: { type: ['string', 'null'] },
    received_at: timestampSchema,
  }),
} as const;

/** A later submission of the same phone within the duplicate window, attributed to the lead. */
export const duplicateAttributionSchema = {
  title: 'DuplicateAttribution',
  ...closedObjectSchema({
    marketing_source: referenceSchema('The source that sent the duplicate.'),
    external_id: { type: ['string', 'null'], description: "The seller's own id, when sent." },
    received_at: timestampSchema,
  }),
} as const;

const leadProperties = {
  id: prefixedIdSchema('lead'),
  marketing_source: referenceSchema('The source that sent the lead.'),
  playbook: referenceSchema('The playbook the lead was enrolled in.'),
  fields: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Every submission field as stored: trimmed; phone E.164, date_of_birth YYYY-MM-DD, state upper case; gender, marital_status and credit_rating as sent.',
  },
  canonical: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Trimmed, lower-cased gender, marital_status and credit_rating.',
  },
  extra: {
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    description: 'Fields the seller sent beyond the known ones, as sent.',
  },
  external_id: { type: ['string', 'null'], description: "The seller's own id, when sent." },
  opted_out: { type: 'boolean' },
  outcome: {
    type: ['string', 'null'],
    description: 'The terminal outcome label once reached (GET /activity_catalog).',
  },
  play: {
    anyOf: [playSchema, { type: 'null' }],
    description: 'The enrollment in the playbook; null until the lead is enrolled.',
  },
  consent: consentEvidenceSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
} as const;

/** A lead as `GET /leads` lists it. */
export const leadSchema = { title: 'Lead', ...closedObjectSchema(leadProperties) } as const;

/** `GET /leads/{id}`: the lead, its whole activity timeline and its duplicate attributions. */
export const leadDetailSchema = {
  title: 'LeadDetail',
  ...closedObjectSchema({
    ...leadProperties,
    activities: {
      type: 'array',
      items: activitySchema,
      description: 'Every activity of the lead, oldest first.',
    },
    duplicates: {
      type: 'array',
      items: duplicateAttributionSchema,
      description: 'Every duplicate submission attributed to this lead, oldest first.',
    },
  }),
} as const;

export const leadListSchema = listEnvelopeSchema('LeadList', leadSchema);

/** The `source_id` filter of `GET /leads`. */
export const leadSourceFilterSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description:
    "Only the leads of this marketing source (a deleted one too: its leads stay). An id that names no source of this account, another account's included, answers 404 `not_found`, like every read of another account's object.",
  examples: ['src_01jdq3v3m5a8f0k2x9b7c6d4e1'],
} as const;

/**
 * Query of `GET /leads`: pagination and the filters (docs/api.md, "Leads"), every
 * one optional; given together, a lead must match them all.
 */
export const leadListQuerySchema = {
  type: 'object',
  properties: {
    ...listQuerySchema.properties,
    source_id: leadSourceFilterSchema,
    outcome: {
      type: 'string',
      enum: OUTCOME_LABELS,
      description: 'Only the leads that reached this outcome (a label of the activity catalog).',
      examples: ['qualified'],
    },
    from: rangeBoundSchema(
      "Only leads received from this day (YYYY-MM-DD, from 00:00 UTC) or instant (ISO 8601 date-time) on: `consent.received_at`. No default: every lead since the account's first.",
      '2026-11-01',
    ),
    to: rangeBoundSchema(
      'Only leads received up to this day (YYYY-MM-DD, inclusive: up to 24:00 UTC) or instant (ISO 8601 date-time, inclusive). Not before `from`. No default.',
      '2026-11-30',
    ),
    phone: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description:
        'Only leads with this phone, in any notation intake takes ("(512) 555-0100", "512.555.0100", "+15125550100"): compared in E.164, as stored. A number that is not dialable is 422 `validation_failed`.',
      examples: ['(512) 555-0100'],
    },
    email: {
      type: 'string',
      minLength: 1,
      maxLength: 254,
      description:
        'Only leads with this email address, whatever its case (Jane@Example.com finds jane@example.com).',
      examples: ['jane.doe@example.com'],
    },
    external_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Only leads the seller sent with this external_id (exact).',
      examples: ['vendor-lead-88213'],
    },
  },
} as const;

export type Play = FromSchema<typeof playSchema>;
export type ConsentEvidence = FromSchema<typeof consentEvidenceSchema>;
export type DuplicateAttribution = FromSchema<typeof duplicateAttributionSchema>;
export type Lead = FromSchema<typeof leadSchema>;
export type LeadDetail = FromSchema<typeof leadDetailSchema>;
export type LeadList = FromSchema<typeof leadListSchema>;
export type LeadListQuery = FromSchema<typeof leadListQuerySchema>;
