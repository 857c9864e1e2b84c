import {
  integrationInstructions,
  marketingSourceCreateSchema,
  marketingSourceUpdateSchema,
  SOURCES_STATS_MAX_LIMIT,
  sourceStatsQuerySchema,
  sourcesStatsQuerySchema,
} from '@leadhook/contracts';
import { accountIdOf } from './auth.middleware.js';
import { crudRoutes } from './crud.js';
import { found, notFound, validationFailed } from './errors.js';
import { pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';
import {
  createSource,
  deleteSource,
  getSource,
  listSources,
  rotateSourceUrl,
  type SourcesContext,
  type SourceWriteResult,
  updateSource,
} from './sources.service.js';
import { resolveStatsRange } from './stats.range.js';
import { sourceStats, sourcesStats } from './stats.service.js';

function sourceOf(result: SourceWriteResult) {
  switch (result.kind) {
    case 'not_found':
      throw notFound('marketing source');
    case 'invalid':
      throw validationFailed(result.details);
    case 'ok':
      return result.source;
  }
}

/** `/marketing_sources` (docs/api.md, "Marketing sources"). Mounted behind requireApiKey. */
export const sourcesRoutes = [
  ...crudRoutes({
    path: '/marketing_sources',
    schema: 'MarketingSource',
    tag: 'Marketing sources',
    noun: 'marketing source',
    createBody: marketingSourceCreateSchema,
    updateBody: marketingSourceUpdateSchema,
    listReplicaRead: 'a page for browsing; a source just written is read by id, on the primary',
    create: async (ctx: SourcesContext, accountId, body) =>
      sourceOf(await createSource(ctx, accountId, body)),
    list: listSources,
    get: async (ctx, accountId, id) => sourceOf(await getSource(ctx, accountId, id)),
    update: async (ctx, accountId, id, body) =>
      sourceOf(await updateSource(ctx, accountId, id, body)),
    delete: async (ctx, accountId, id) => {
      found(await deleteSource(ctx, accountId, id), 'marketing source');
    },
  }),
  defineRoute({
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
    handler: async ({ res, params }, ctx: SourcesContext) => {
      res.json(sourceOf(await rotateSourceUrl(ctx, accountIdOf(res), params.id)));
    },
  }),
  defineRoute({
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
    handler: async ({ res, params }, ctx: SourcesContext) => {
      const source = sourceOf(await getSource(ctx, accountIdOf(res), params.id));
      res.json(integrationInstructions(source));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/marketing_sources/{id}/stats',
    operationId: 'getMarketingSourceStats',
    summary:
      'Source performance: accepted, duplicate, rejected by reason, and outcomes reached, per day',
    description:
      "Counts over a range of UTC days (default: the last 30, today included; at most 366). Submissions count by when they arrived; `outcomes` counts the source's leads by when their outcome occurred and lists every outcome label of the catalog (0 when none). `by_day` has one entry per day of the range, zeros included, with the same figures as the whole range (accepted, duplicate, rejected by reason, outcomes by label).",
    tag: 'Marketing sources',
    query: sourceStatsQuerySchema,
    replicaRead:
      'counts of submissions and outcomes that never stop arriving: a moment old is as true as any',
    success: { status: 200, schema: 'SourceStats', description: "The source's performance." },
    invalid:
      'validation_failed: from or to is not a real date or date-time (code invalid), from is after to (field from, code invalid), or the range is over 366 days (field from, code too_long).',
    handler: async ({ res, params, query }, ctx: SourcesContext) => {
      const range = resolveStatsRange(query, new Date());
      if (!range.ok) throw validationFailed(range.details);
      const result = await sourceStats(ctx.prisma, accountIdOf(res), params.id, range.range);
      res.json(found(result, 'marketing source').stats);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/stats/sources',
    operationId: 'listMarketingSourceStats',
    summary: 'Every marketing source with its performance: one answer for a dashboard table',
    description:
      "The account's marketing sources (not deleted), newest first, each with its id, name, source_type, status and playbook_id and the figures of `GET /marketing_sources/{id}/stats` over the same range (same `from`/`to`, same defaults), without `by_day`. Sources with nothing in the range are listed with zeros. Up to 1,000 sources an answer (`limit`, default 1,000); an account with more pages on with `cursor`.",
    tag: 'Marketing sources',
    query: sourcesStatsQuerySchema,
    replicaRead:
      'counts of submissions and outcomes that never stop arriving: a moment old is as true as any',
    success: {
      status: 200,
      schema: 'SourceStatsList',
      description: "The account's sources and their figures.",
    },
    invalid:
      'validation_failed: from or to is not a real date or date-time (code invalid), from is after to (field from, code invalid), the range is over 366 days (field from, code too_long), or limit is not 1–1000.',
    handler: async ({ res, query }, ctx: SourcesContext) => {
      const range = resolveStatsRange(query, new Date());
      if (!range.ok) throw validationFailed(range.details);
      const page = { ...pageRequestOf(query), limit: query.limit ?? SOURCES_STATS_MAX_LIMIT };
      res.json(await sourcesStats(ctx.prisma, accountIdOf(res), page, range.range));
    },
  }),
];
