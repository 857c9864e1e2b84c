export type { ActivityGroup, ActivityType, CatalogEntry } from './activity-catalog.js';
export {
  ACTIVITY_CATALOG,
  ACTIVITY_GROUPS,
  ACTIVITY_TYPES,
  catalogEntry,
  EVENT_LABELS,
  OUTCOME_LABELS,
  RESERVED_LABELS,
  reservedLabel,
  TEST_LABEL,
} from './activity-catalog.js';
export * from './api/index.js';
export type { ConsentProvider, ConsentRequirement } from './consent-provider.js';
export {
  CONSENT_PROVIDERS,
  CONSENT_REQUIREMENTS,
  CONSENT_UNRECOGNISED_MESSAGE,
  consentProvider,
} from './consent-provider.js';
export type { IntegrationField, IntegrationSource } from './integration-instructions.js';
export {
  exampleLead,
  htmlEscape,
  intakeResponses,
  integrationFields,
  integrationInstructions,
  postUrlOf,
} from './integration-instructions.js';
export type { JobPayloads, JobTopic } from './job-payloads.schema.js';
export { isJobPayload, jobPayloadProblem, jobPayloadSchemas } from './job-payloads.schema.js';
export type { JsonTextProblem } from './json-text.js';
export {
  charsetOf,
  isUnstorableText,
  isUtf8ContentType,
  jsonTextProblem,
  MAX_JSON_DEPTH,
  UNSTORABLE_TEXT_MESSAGE,
} from './json-text.js';
export {
  EARLIEST_BIRTH_YEAR,
  isHttpUrl,
  isUsState,
  normalizeZip,
  type ParsedPhone,
  parsePhone,
  toE164,
  toPastIsoDate,
  trimInvisible,
  US_STATE_CODES,
  zipFromNumber,
} from './lead.formats.js';
export type { LeadFieldName } from './lead.schema.js';
export {
  CANONICAL_FIELDS,
  EXTRA_FIELD_LIMITS,
  LEAD_FIELD_NAMES,
  LEAD_FIELDS,
  leadSubmissionSchema,
  NOT_BLANK_PATTERN,
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
  StoredRejectionReason,
} from './lead.validation.js';
export {
  createLeadValidator,
  isLeadField,
  PHONE_EXTENSION_FIELD,
  rejectionReasons,
} from './lead.validation.js';
export * from './openapi/index.js';
export type { StopKeyword } from './stop-keywords.js';
export {
  isStopReply,
  normalizeReply,
  REVOCATION_PHRASES,
  STOP_KEYWORDS,
} from './stop-keywords.js';
export type { WebhookPayload } from './webhook-payload.schema.js';
export { webhookPayloadSchema } from './webhook-payload.schema.js';
