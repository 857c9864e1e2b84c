import { leadListQuerySchema } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { accountIdOf } from './auth.middleware.js';
import { found, notFound } from './errors.js';
import { getLead, listLeads } from './leads.service.js';
import { pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';

/** `/leads` (docs/api.md, "Leads"): read-only; leads come from intake. Mounted behind requireApiKey. */
export const leadsRoutes = [
  defineRoute({
    method: 'get',
    path: '/leads',
    operationId: 'listLeads',
    summary: "List the account's leads, newest first",
    tag: 'Leads',
    query: leadListQuerySchema,
    notFound:
      "not_found: source_id names no marketing source of this account (another account's, or none).",
    success: { status: 200, schema: 'LeadList', description: 'A page of leads.' },
    handler: async ({ res, query }, prisma: PrismaClient) => {
      const result = await listLeads(prisma, accountIdOf(res), pageRequestOf(query), {
        sourceId: query.source_id,
      });
      if (result.kind === 'source_not_found') throw notFound('marketing source');
      res.json(result.page);
    },
  }),
  defineRoute({
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
    handler: async ({ res, params }, prisma: PrismaClient) => {
      res.json(found(await getLead(prisma, accountIdOf(res), params.id), 'lead').lead);
    },
  }),
];
