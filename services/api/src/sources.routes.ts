import {
  integrationInstructions,
  marketingSourceCreateSchema,
  marketingSourceUpdateSchema,
  sourceStatsQuerySchema,
} from '@leadhook/contracts';
import { Router } from 'express';
import { accountIdOf } from './auth.middleware.js';
import { notFound, validationFailed } from './errors.js';
import { pageRequestOf } from './pagination.js';
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
import { sourceStats } from './stats.service.js';
import { bodyValidator, queryValidator } from './validation.js';

const validateCreate = bodyValidator(marketingSourceCreateSchema);
const validateUpdate = bodyValidator(marketingSourceUpdateSchema);
const validateStatsQuery = queryValidator(sourceStatsQuerySchema);

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
export function sourcesRoutes(ctx: SourcesContext): Router {
  const router = Router();

  router.post('/marketing_sources', async (req, res) => {
    const body = validateCreate(req.body);
    if (!body.ok) throw validationFailed(body.details);
    res.status(201).json(sourceOf(await createSource(ctx, accountIdOf(res), body.value)));
  });

  router.get('/marketing_sources', async (req, res) => {
    res.json(await listSources(ctx, accountIdOf(res), pageRequestOf(req)));
  });

  router.get('/marketing_sources/:id', async (req, res) => {
    res.json(sourceOf(await getSource(ctx, accountIdOf(res), req.params.id)));
  });

  router.patch('/marketing_sources/:id', async (req, res) => {
    const body = validateUpdate(req.body);
    if (!body.ok) throw validationFailed(body.details);
    res.json(sourceOf(await updateSource(ctx, accountIdOf(res), req.params.id, body.value)));
  });

  router.delete('/marketing_sources/:id', async (req, res) => {
    const result = await deleteSource(ctx, accountIdOf(res), req.params.id);
    if (result.kind === 'not_found') throw notFound('marketing source');
    res.status(204).end();
  });

  router.post('/marketing_sources/:id/rotate_url', async (req, res) => {
    res.json(sourceOf(await rotateSourceUrl(ctx, accountIdOf(res), req.params.id)));
  });

  router.get('/marketing_sources/:id/integration', async (req, res) => {
    const source = sourceOf(await getSource(ctx, accountIdOf(res), req.params.id));
    res.json(integrationInstructions(source));
  });

  router.get('/marketing_sources/:id/stats', async (req, res) => {
    const query = validateStatsQuery(req.query);
    if (!query.ok) throw validationFailed(query.details);
    const range = resolveStatsRange(query.value, new Date());
    if (!range.ok) throw validationFailed(range.details);
    const result = await sourceStats(ctx.prisma, accountIdOf(res), req.params.id, range.range);
    if (result.kind === 'not_found') throw notFound('marketing source');
    res.json(result.stats);
  });

  return router;
}
