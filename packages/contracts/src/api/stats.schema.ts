import type { FromSchema } from 'json-schema-to-ts';
import { closedObjectSchema, listEnvelopeSchema, listQuerySchema } from './common.schema.js';
import { SOURCE_STATUSES, SOURCE_TYPES } from './marketing-source.schema.js';

/**
 * `GET /marketing_sources/{id}/stats` (docs/api.md, "Source performance"): what a
 * source sent (accepted, duplicate, rejected by reason) and the outcomes its leads
 * reached, over a range of UTC days.
 */

/**
 * A calendar date (a whole UTC day) or an instant with its offset. The pattern
 * only admits the shapes; the service refuses impossible dates (2026-02-30).
 */
export const rangeBoundSchema = (description: string, example: string) =>
  ({
    type: 'string',
    maxLength: 40,
    pattern:
      '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2}))?$',
    description,
    examples: [example],
  }) as const;

/** Query of the stats: both bounds optional. */
export const sourceStatsQuerySchema = {
  type: 'object',
  properties: {
    from: rangeBoundSchema(
      'First day (YYYY-MM-DD, from 00:00 UTC) or instant (ISO 8601 date-time) counted. Default: 29 days before `to`, so the range is 30 UTC days.',
      '2026-11-01',
    ),
    to: rangeBoundSchema(
      'Last day (YYYY-MM-DD, inclusive: up to 24:00 UTC) or instant (ISO 8601 date-time, inclusive) counted. Default: now. At most 366 days after `from`; not before it.',
      '2026-11-30',
    ),
  },
} as const;

const countSchema = { type: 'integer', minimum: 0 } as const;

/** One reason of rejected submissions: how many rejected submissions had it. */
export const rejectionReasonSchema = closedObjectSchema({
  field: {
    type: 'string',
    description:
      'A lead field, or "" for a problem with a field of the seller\'s own (codes unknown_field and too_many_fields): its name is never kept.',
    examples: ['phone'],
  },
  code: { type: 'string', examples: ['invalid'] },
  count: countSchema,
});

/** Rejected submissions: how many, and why. */
const rejectedSchema = closedObjectSchema({
  total: countSchema,
  by_reason: {
    type: 'array',
    items: rejectionReasonSchema,
    description:
      'One entry per (field, code); a submission with several reasons counts once in each. Ordered by count (descending), then field, then code.',
  },
});

/** Outcomes reached, by label. */
const outcomesSchema = {
  type: 'object',
  additionalProperties: countSchema,
  description:
    "Every outcome label of the activity catalog, with the number of this source's leads whose outcome occurred in the period (0 when none).",
  examples: [{ qualified: 3, not_interested: 1, opted_out: 0 }],
} as const;

/** One UTC day of the range: the same figures as the whole range, for that day. */
export const sourceStatsDaySchema = closedObjectSchema({
  date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-11-22'] },
  accepted: countSchema,
  duplicate: countSchema,
  rejected: rejectedSchema,
  outcomes: outcomesSchema,
});

export const sourceStatsSchema = {
  title: 'SourceStats',
  ...closedObjectSchema({
    accepted: {
      ...countSchema,
      description: 'Submissions that created a lead, in the range.',
    },
    duplicate: {
      ...countSchema,
      description: "Submissions of a phone already among the account's recent leads.",
    },
    rejected: rejectedSchema,
    outcomes: outcomesSchema,
    by_day: {
      type: 'array',
      items: sourceStatsDaySchema,
      description:
        'One entry per UTC day of the range, oldest first, days without activity included (zeros): accepted, duplicate, rejected by reason and outcomes by label, as for the whole range.',
    },
  }),
} as const;

/**
 * `GET /stats/sources` (docs/api.md, "Source performance"): every source of the
 * account with its figures over one range, in one answer for a dashboard's
 * table. At most SOURCES_STATS_MAX_LIMIT sources an answer; an account with more
 * pages on with `cursor`.
 */
export const SOURCES_STATS_MAX_LIMIT = 1000;

export const sourcesStatsQuerySchema = {
  type: 'object',
  properties: {
    ...sourceStatsQuerySchema.properties,
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SOURCES_STATS_MAX_LIMIT,
      default: SOURCES_STATS_MAX_LIMIT,
      description: `Sources per answer, 1–${SOURCES_STATS_MAX_LIMIT}, default ${SOURCES_STATS_MAX_LIMIT}: an account's every source in one answer.`,
    },
    cursor: listQuerySchema.properties.cursor,
  },
} as const;

/** One source of the account and its figures over the range (by_day: the per-source stats). */
export const sourceStatsRowSchema = closedObjectSchema({
  id: { type: 'string', examples: ['src_01jdq3v3m5a8f0k2x9b7c6d4e1'] },
  name: { type: 'string', examples: ['Acme Leads'] },
  source_type: { type: 'string', enum: SOURCE_TYPES },
  status: { type: 'string', enum: SOURCE_STATUSES },
  playbook_id: { type: 'string', examples: ['pb_01jdq3v3m5a8f0k2x9b7c6d4e1'] },
  accepted: sourceStatsSchema.properties.accepted,
  duplicate: sourceStatsSchema.properties.duplicate,
  rejected: rejectedSchema,
  outcomes: outcomesSchema,
});

export const sourceStatsListSchema = listEnvelopeSchema('SourceStatsList', sourceStatsRowSchema);

export type SourcesStatsQuery = FromSchema<typeof sourcesStatsQuerySchema>;
export type SourceStatsRow = FromSchema<typeof sourceStatsRowSchema>;
export type SourceStatsList = FromSchema<typeof sourceStatsListSchema>;
export type SourceStatsQuery = FromSchema<typeof sourceStatsQuerySchema>;
export type RejectionReason = FromSchema<typeof rejectionReasonSchema>;
export type SourceStatsDay = FromSchema<typeof sourceStatsDaySchema>;
export type SourceStats = FromSchema<typeof sourceStatsSchema>;
