import { leadListQuerySchema } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { Router } from 'express';
import { accountIdOf } from './auth.middleware.js';
import { notFound, validationFailed } from './errors.js';
import { getLead, listLeads } from './leads.service.js';
import { queryValidator } from './validation.js';

const validateListQuery = queryValidator(leadListQuerySchema);

/** `/leads` (docs/api.md, "Leads"): read-only; leads come from intake. Mounted behind requireApiKey. */
export function leadsRoutes(prisma: PrismaClient): Router {
  const router = Router();

  router.get('/leads', async (req, res) => {
    const query = validateListQuery(req.query);
    if (!query.ok) throw validationFailed(query.details);
    const { limit, cursor, source_id: sourceId } = query.value;
    const result = await listLeads(
      prisma,
      accountIdOf(res),
      { limit: limit ?? 20, cursor },
      { sourceId },
    );
    if (result.kind === 'source_not_found') throw notFound('marketing source');
    res.json(result.page);
  });

  router.get('/leads/:id', async (req, res) => {
    const result = await getLead(prisma, accountIdOf(res), req.params.id);
    if (result.kind === 'not_found') throw notFound('lead');
    res.json(result.lead);
  });

  return router;
}
