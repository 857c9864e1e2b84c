import type { FromSchema } from 'json-schema-to-ts';
import { CONSENT_REQUIREMENTS } from '../consent-provider.js';
import { namedResourceSchema, nameSchema } from './common.schema.js';

export const SOURCE_TYPES = ['vendor', 'affiliate', 'web_form', 'campaign'] as const;
export const SOURCE_STATUSES = ['active', 'paused'] as const;

const sourceTypeSchema = { type: 'string', enum: SOURCE_TYPES } as const;
const statusSchema = {
  type: 'string',
  enum: SOURCE_STATUSES,
  description: 'A paused source answers 404 to sellers, like an unknown one.',
} as const;
const playbookIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: "One of the account's playbooks (not deleted).",
  examples: ['pb_01jdq3v3m5a8f0k2x9b7c6d4e1'],
} as const;
const rateLimitSchema = {
  type: ['integer', 'null'],
  minimum: 0,
  maximum: 100_000,
  description:
    'Requests per second this source may send (bursts up to twice that); 0 = unlimited; null = the deployment default.',
} as const;
const redirectUrlSchema = {
  type: ['string', 'null'],
  maxLength: 2048,
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description:
    'An http(s) URL. A form-urlencoded submission is answered 303 to it (with ?error=<code> when rejected); JSON submissions always get JSON.',
  examples: ['https://example.com/thanks'],
} as const;

const consentRequiredSchema = {
  type: 'string',
  enum: CONSENT_REQUIREMENTS,
  description:
    'What a lead\'s tcpa_opt_in_token must be: "any" non-blank token, or a "recognised" certificate (a TrustedForm certificate URL or 40-hex id, or a Jornaya LeadiD UUID); otherwise intake answers 422 consent_unrecognised.',
} as const;

/** `POST /marketing_sources`. */
export const marketingSourceCreateSchema = {
  title: 'MarketingSourceCreate',
  type: 'object',
  required: ['name', 'source_type', 'playbook_id'],
  properties: {
    name: nameSchema,
    source_type: sourceTypeSchema,
    playbook_id: playbookIdSchema,
    status: { ...statusSchema, default: 'active' },
    rate_limit: rateLimitSchema,
    redirect_url: redirectUrlSchema,
    consent_required: { ...consentRequiredSchema, default: 'any' },
  },
  additionalProperties: false,
} as const;

/** `PATCH /marketing_sources/{id}`. */
export const marketingSourceUpdateSchema = {
  title: 'MarketingSourceUpdate',
  type: 'object',
  properties: {
    name: nameSchema,
    source_type: sourceTypeSchema,
    playbook_id: playbookIdSchema,
    status: statusSchema,
    rate_limit: rateLimitSchema,
    redirect_url: redirectUrlSchema,
    consent_required: consentRequiredSchema,
  },
  additionalProperties: false,
} as const;

export const marketingSourceSchema = namedResourceSchema('MarketingSource', {
  source_type: sourceTypeSchema,
  playbook_id: { type: 'string' },
  status: statusSchema,
  rate_limit: rateLimitSchema,
  redirect_url: redirectUrlSchema,
  consent_required: consentRequiredSchema,
  post_url: {
    type: 'string',
    format: 'uri',
    readOnly: true,
    description:
      'Where the seller POSTs leads. It embeds the secret intake key: share it only with this seller; rotate_url replaces it.',
    examples: ['https://leads.example.com/marketing_sources/acc_01jd…/Xy3…'],
  },
});

export type MarketingSourceCreate = FromSchema<typeof marketingSourceCreateSchema>;
export type MarketingSourceUpdate = FromSchema<typeof marketingSourceUpdateSchema>;
export type MarketingSource = FromSchema<typeof marketingSourceSchema>;
export type SourceType = (typeof SOURCE_TYPES)[number];
export type SourceStatus = (typeof SOURCE_STATUSES)[number];
