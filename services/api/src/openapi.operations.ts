import { leadSourceFilterSchema, sourceStatsQuerySchema } from '@leadhook/contracts';
import type { Operation } from './openapi.schemas.js';
import { SUBSCRIPTION_OPERATIONS } from './openapi.subscriptions.js';

/**
 * The operations the OpenAPI document describes. Written apart from the Express
 * routes on purpose: openapi.test.ts compares this list with the router's real
 * stack, so a route added without its documentation (or the reverse) fails.
 */

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This document',
    tag: 'Meta',
    success: { status: 200, schema: 'OpenApiDocument', description: 'The OpenAPI 3.1 document.' },
    public: true,
  },
  {
    method: 'get',
    path: '/account',
    operationId: 'getAccount',
    summary: 'The authenticated account (also a connection test)',
    tag: 'Account',
    success: { status: 200, schema: 'Account', description: 'The account.' },
  },
  {
    method: 'patch',
    path: '/account',
    operationId: 'updateAccount',
    summary: "Update the account's name or duplicate window",
    tag: 'Account',
    body: 'AccountUpdate',
    success: { status: 200, schema: 'Account', description: 'The updated account.' },
  },
  {
    method: 'post',
    path: '/account/api_keys/rotate',
    operationId: 'rotateApiKey',
    summary: 'Issue a new API key; the current one stops working at once',
    tag: 'Account',
    success: {
      status: 200,
      schema: 'ApiKeyRotation',
      description: 'The new key, shown only in this answer.',
    },
  },
  ...crud('/playbooks', 'Playbook', 'Playbooks', 'playbook', {
    status: 409,
    description: 'playbook_in_use: a marketing source still uses the playbook.',
  }),
  ...crud('/marketing_sources', 'MarketingSource', 'Marketing sources', 'marketing source'),
  {
    method: 'post',
    path: '/marketing_sources/{id}/rotate_url',
    operationId: 'rotateMarketingSourceUrl',
    summary: 'Issue a new post_url; the old one stops working at once',
    tag: 'Marketing sources',
    success: {
      status: 200,
      schema: 'MarketingSource',
      description: 'The source with its new post_url.',
    },
  },
  {
    method: 'get',
    path: '/marketing_sources/{id}/integration',
    operationId: 'getIntegrationInstructions',
    summary: "The source's Integration Instructions for its seller",
    tag: 'Marketing sources',
    success: {
      status: 200,
      schema: 'IntegrationInstructions',
      description: 'The exact URL, every field, the responses and ready-to-paste examples.',
    },
  },
  {
    method: 'get',
    path: '/marketing_sources/{id}/stats',
    operationId: 'getMarketingSourceStats',
    summary:
      'Source performance: accepted, duplicate, rejected by reason, and outcomes reached, per day',
    description:
      "Counts over a range of UTC days (default: the last 30, today included; at most 366). Submissions count by when they arrived; `outcomes` counts the source's leads by when their outcome occurred and lists every outcome label of the catalog (0 when none). `by_day` has one entry per day of the range, zeros included, with the same figures as the whole range (accepted, duplicate, rejected by reason, outcomes by label).",
    tag: 'Marketing sources',
    filters: {
      from: sourceStatsQuerySchema.properties.from,
      to: sourceStatsQuerySchema.properties.to,
    },
    success: { status: 200, schema: 'SourceStats', description: "The source's performance." },
    invalid:
      'validation_failed: from or to is not a real date or date-time (code invalid), from is after to (field from, code invalid), or the range is over 366 days (field from, code too_long).',
  },
  {
    method: 'get',
    path: '/leads',
    operationId: 'listLeads',
    summary: "List the account's leads, newest first",
    tag: 'Leads',
    list: true,
    filters: { source_id: leadSourceFilterSchema },
    notFound:
      "not_found: source_id names no marketing source of this account (another account's, or none).",
    success: { status: 200, schema: 'LeadList', description: 'A page of leads.' },
  },
  {
    method: 'get',
    path: '/leads/{id}',
    operationId: 'getLead',
    summary: 'Get a lead with its activity timeline, consent evidence and duplicate attributions',
    tag: 'Leads',
    success: {
      status: 200,
      schema: 'LeadDetail',
      description:
        'The lead; `activities` is its whole timeline, oldest first; `duplicates` the later submissions of the same phone attributed to it.',
    },
  },
  {
    method: 'post',
    path: '/leads/{id}/activities',
    operationId: 'reportActivity',
    summary: 'Report an activity on a lead (dialer, copilot, an agent, an inbound reply)',
    description:
      "The activity takes the same path as the playbook worker's own: it is on the timeline and sent to the subscriptions that selected its label. An outcome is terminal and stops an active play (a `stopped` event is recorded first). A message_received whose `data.body` is STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT; any case) opts the lead out at once: `stopped` and the outcome `opted_out` follow it. The answer is the reported activity, with every other activity the report recorded in `caused`, in occurrence order.",
    tag: 'Activities',
    body: 'ActivityCreate',
    success: {
      status: 201,
      schema: 'ActivityReport',
      description: 'The reported activity; `caused` lists what else it recorded ([] when nothing).',
    },
    conflicts: {
      status: 409,
      description:
        'outcome_exists: the lead already has an outcome (the message names it); at most one per lead.',
    },
    invalid:
      'validation_failed: the body does not fit ActivityCreate, or activity_label is not a catalog label of that activity_type (details code unknown_label or type_mismatch; the message names the label and the allowed ones), or message_received lacks data.body.',
  },
  {
    method: 'get',
    path: '/activity_catalog',
    operationId: 'getActivityCatalog',
    summary: 'Every event and outcome label with its meaning',
    description:
      'The whole catalog in one page (next_cursor is always null). `interested` is both an event and an outcome.',
    tag: 'Activities',
    success: { status: 200, schema: 'ActivityCatalog', description: 'The activity catalog.' },
  },
  ...SUBSCRIPTION_OPERATIONS,
];

/** The five operations of a resource collection. */
function crud(
  base: string,
  name: 'Playbook' | 'MarketingSource',
  tag: Operation['tag'],
  noun: string,
  deleteConflict?: Operation['conflicts'],
): Operation[] {
  const item = `${base}/{id}`;
  return [
    {
      method: 'post',
      path: base,
      operationId: `create${name}`,
      summary: `Create a ${noun}`,
      tag,
      body: `${name}Create`,
      success: { status: 201, schema: name, description: `The new ${noun}.` },
    },
    {
      method: 'get',
      path: base,
      operationId: `list${name}s`,
      summary: `List ${noun}s, newest first`,
      tag,
      list: true,
      success: { status: 200, schema: `${name}List`, description: `A page of ${noun}s.` },
    },
    {
      method: 'get',
      path: item,
      operationId: `get${name}`,
      summary: `Get a ${noun}`,
      tag,
      success: { status: 200, schema: name, description: `The ${noun}.` },
    },
    {
      method: 'patch',
      path: item,
      operationId: `update${name}`,
      summary: `Update a ${noun}`,
      tag,
      body: `${name}Update`,
      success: { status: 200, schema: name, description: `The updated ${noun}.` },
    },
    {
      method: 'delete',
      path: item,
      operationId: `delete${name}`,
      summary: `Delete a ${noun}`,
      tag,
      success: { status: 204, description: `Deleted; the ${noun} now answers 404.` },
      ...(deleteConflict ? { conflicts: deleteConflict } : {}),
    },
  ];
}
