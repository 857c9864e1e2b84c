export type { ActivityGroup, ActivityType, CatalogEntry } from './activity-catalog.js';
export {
  ACTIVITY_CATALOG,
  ACTIVITY_GROUPS,
  ACTIVITY_TYPES,
  catalogEntry,
  EVENT_LABELS,
  isStopReply,
  OUTCOME_LABELS,
  RESERVED_LABELS,
  reservedLabel,
  STOP_WORDS,
  TEST_LABEL,
} from './activity-catalog.js';
export * from './api/index.js';
export {
  EARLIEST_BIRTH_YEAR,
  isHttpUrl,
  isUsState,
  normalizeZip,
  toE164,
  toPastIsoDate,
  US_STATE_CODES,
} from './lead.formats.js';
export type { LeadFieldName } from './lead.schema.js';
export {
  CANONICAL_FIELDS,
  EXTRA_FIELD_LIMITS,
  LEAD_FIELD_NAMES,
  LEAD_FIELDS,
  leadSubmissionSchema,
} from './lead.schema.js';
export type {
  CanonicalFieldName,
  ExtraValue,
  LeadErrorCode,
  LeadFieldError,
  LeadValidationResult,
  LeadValidator,
  LeadValidatorOptions,
  NormalizedLead,
} from './lead.validation.js';
export { createLeadValidator } from './lead.validation.js';
export type { WebhookPayload } from './webhook-payload.schema.js';
export { webhookPayloadSchema } from './webhook-payload.schema.js';
