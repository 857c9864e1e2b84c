import type { FromSchema } from 'json-schema-to-ts';
import { ACTIVITY_GROUPS, ACTIVITY_TYPES } from '../activity-catalog.js';
import {
  closedObjectSchema,
  listEnvelopeSchema,
  prefixedIdSchema,
  timestampSchema,
} from './common.schema.js';

/**
 * The activity catalog and activities as the management API shows them
 * (docs/api.md, "Activities"). The labels themselves live in one table
 * (activity-catalog.ts); these schemas describe how they travel.
 */

const activityTypeSchema = {
  type: 'string',
  enum: ACTIVITY_TYPES,
  description: 'event, or outcome (terminal: at most one per lead).',
} as const;

/** One label of `GET /activity_catalog`. */
export const activityCatalogEntrySchema = {
  title: 'ActivityCatalogEntry',
  ...closedObjectSchema({
    label: { type: 'string', examples: ['first_message_sent'] },
    type: activityTypeSchema,
    group: {
      type: 'string',
      enum: ACTIVITY_GROUPS,
      description:
        '`reserved`: a label leadhook sends by itself (`test`, the test delivery), listed so subscribers know it; it cannot be selected in a subscription or reported through POST /leads/{id}/activities.',
    },
    meaning: { type: 'string', description: 'One line saying when the activity happens.' },
  }),
} as const;

/**
 * `GET /activity_catalog`: the whole catalog in one page (next_cursor is always
 * null), in the list envelope every list answers. `interested` appears twice: as
 * an event and as an outcome. The reserved labels come last (group `reserved`).
 */
export const activityCatalogSchema = listEnvelopeSchema(
  'ActivityCatalog',
  activityCatalogEntrySchema,
);

/** An activity of a lead: an element of its timeline, and what `POST /leads/{id}/activities` answers. */
export const activitySchema = {
  title: 'Activity',
  ...closedObjectSchema({
    id: prefixedIdSchema('act'),
    lead_id: prefixedIdSchema('lead'),
    activity_type: activityTypeSchema,
    activity_label: {
      type: 'string',
      description: 'A label of GET /activity_catalog.',
      examples: ['message_received'],
    },
    activity_note: { type: 'string', description: 'A short human sentence.' },
    data: {
      type: 'object',
      description: 'Details of the activity, e.g. `body` for message_received.',
    },
    occurred_at: timestampSchema,
  }),
} as const;

/** Bound on a reported activity's `data`: it travels in every webhook delivery. */
export const ACTIVITY_DATA_MAX_BYTES = 16_384;

/**
 * `POST /leads/{id}/activities`: the dialer, copilot or an agent reports what
 * happened. The label must be one of the catalog's labels of that activity_type
 * (checked by the API with a message naming what is allowed).
 */
export const activityCreateSchema = {
  title: 'ActivityCreate',
  type: 'object',
  required: ['activity_type', 'activity_label'],
  properties: {
    activity_type: activityTypeSchema,
    activity_label: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description:
        'A label of GET /activity_catalog of the given activity_type; anything else is 422. Only one outcome per lead: a second is 409 outcome_exists.',
      examples: ['call_answered', 'qualified', 'message_received'],
    },
    data: {
      type: 'object',
      maxProperties: 50,
      description: `Details (at most 50 properties, ${ACTIVITY_DATA_MAX_BYTES} bytes as JSON). message_received requires \`data.body\`, the text of the reply: STOP and its synonyms opt the lead out at once.`,
      examples: [{ body: 'Yes, call me after 5pm' }],
    },
  },
  additionalProperties: false,
} as const;

/**
 * What `POST /leads/{id}/activities` answers (201): the reported activity itself,
 * plus `caused`, every other activity the same report recorded, in the order they
 * occurred (e.g. `stopped` before an outcome that ended an active play; `stopped`
 * and the outcome `opted_out` after a STOP reply). Each is also on the timeline.
 */
export const activityReportSchema = {
  ...activitySchema,
  title: 'ActivityReport',
  required: [...activitySchema.required, 'caused'],
  properties: {
    ...activitySchema.properties,
    caused: {
      type: 'array',
      items: activitySchema,
      description:
        'Other activities this report recorded, in occurrence order; [] when none (e.g. stopped and opted_out after a STOP reply).',
    },
  },
} as const;

export type ActivityCatalogEntry = FromSchema<typeof activityCatalogEntrySchema>;
export type ActivityCatalog = FromSchema<typeof activityCatalogSchema>;
export type Activity = FromSchema<typeof activitySchema>;
export type ActivityCreate = FromSchema<typeof activityCreateSchema>;
export type ActivityReport = FromSchema<typeof activityReportSchema>;
