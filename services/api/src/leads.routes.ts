import { type LeadListQuery, leadListQuerySchema, trimInvisible } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { accountIdOf } from './auth.middleware.js';
import { found, notFound, validationFailed } from './errors.js';
import { getLead, type LeadFilter, listLeads } from './leads.service.js';
import { pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';
import { resolvePeriod } from './stats.range.js';
import { normalizePhone } from './suppressions.service.js';
import type { ErrorDetail } from './validation.js';

/**
 * The list's filters from its validated query, normalised as intake stores the
 * values: the phone in E.164, the period as instants (docs/api.md, "Leads").
 * Every problem is listed in one 422, as the schema's own are.
 */
function leadFilterOf(query: LeadListQuery): LeadFilter {
  const details: ErrorDetail[] = [];
  const period = resolvePeriod(query);
  if (!period.ok) details.push(...period.details);
  const phone = query.phone === undefined ? undefined : normalizePhone(query.phone);
  if (phone === null) {
    details.push({
      field: 'phone',
      code: 'invalid',
      message:
        'phone must be a dialable number: a US or Canadian number in any notation, or + and the country code.',
    });
  }
  if (details.length > 0 || !period.ok || phone === null) throw validationFailed(details);
  return {
    sourceId: query.source_id,
    outcome: query.outcome,
    from: period.from,
    until: period.until,
    phone,
    email: query.email === undefined ? undefined : trimInvisible(query.email),
    externalId: query.external_id,
  };
}

/** `/leads` (docs/api.md, "Leads"): read-only; leads come from intake. Mounted behind requireApiKey. */
export const leadsRoutes = [
  defineRoute({
    method: 'get',
    path: '/leads',
    operationId: 'listLeads',
    summary: "List the account's leads, newest first, optionally filtered",
    description:
      'Filters combine (a lead matches every one given) and page like the unfiltered list. `phone` is compared in E.164 whatever its notation, `email` whatever its case, `external_id` exactly; `from`/`to` bound the time the lead was received (`consent.received_at`) with the bounds of the source stats: a day from 00:00 UTC, a `to` day inclusive, or an ISO 8601 instant.',
    tag: 'Leads',
    query: leadListQuerySchema,
    replicaRead:
      'browsing and search of leads intake keeps adding; a lead just accepted is read by id (GET /leads/{id}), on the primary',
    invalid:
      'validation_failed: outcome is not a catalog outcome label, phone is not a dialable number, from or to is not a real date or date-time, or from is after to (field from).',
    notFound:
      "not_found: source_id names no marketing source of this account (another account's, or none).",
    success: { status: 200, schema: 'LeadList', description: 'A page of leads.' },
    handler: async ({ res, query }, prisma: PrismaClient) => {
      const filter = leadFilterOf(query);
      const result = await listLeads(prisma, accountIdOf(res), pageRequestOf(query), filter);
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
