export type { LeadFieldName } from './lead.schema.js';
export {
  CANONICAL_FIELDS,
  EXTRA_FIELD_LIMITS,
  LEAD_FIELD_NAMES,
  LEAD_FIELDS,
  leadSubmissionSchema,
} from './lead.schema.js';
