import {
  IDEMPOTENCY_KEY_PARAMETER,
  intakeResponseObjects,
  MAX_BODY_FIELDS,
  RETRY_AFTER_HEADER,
  schemaRef,
  TOO_MANY_FIELDS_MESSAGE,
} from '@leadhook/contracts';
import {
  INVALID_IDEMPOTENCY_KEY_MESSAGE,
  type IntakeService,
  idempotencyConflictBody,
  isIdempotencyKey,
  type leadCounter,
  logReasons,
  responseOf,
} from '@leadhook/intake-core';
import type { Response } from 'express';
import { accountIdOf } from './auth.middleware.js';
import { ApiError, notFound, RateLimitedError } from './errors.js';
import { defineRoute } from './route.js';

export interface SourceLeadsContext {
  /** Intake's own service (packages/intake-core): the same path as a post URL's lead. */
  intake: IntakeService;
  /** leadhook_intake_leads_total, counted here as intake counts it. */
  leads: ReturnType<typeof leadCounter>;
}

const ERROR_CONTENT = { 'application/json': { schema: schemaRef('Error') } };

/** Seconds to wait when PostgreSQL is away, as for every other route of the API. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * What the request's log line says about the lead (ids and codes only), as
 * intake's line says it: `result` is accepted, duplicate, rejected, replayed or
 * idempotency_key_reused.
 */
export type LeadLogFields = {
  result: string;
  source_id: string;
  lead_id?: string;
  reasons?: string[];
};

function noteLead(res: Response, fields: LeadLogFields): void {
  res.locals.lead = fields;
}

/** The fields noteLead recorded, for httpObservability's logFields. */
export function leadLogFields(res: Response): LeadLogFields | undefined {
  const fields: LeadLogFields | undefined = res.locals.lead;
  return fields;
}

function unavailable(res: Response): ApiError {
  res.setHeader('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return new ApiError(503, 'service_unavailable', 'Try again shortly.');
}

/**
 * `POST /marketing_sources/{id}/leads` (docs/api.md, "Create a lead in a source"):
 * a lead for one of the account's sources, sent with the API key instead of the
 * secret post URL, for automations. The lead takes intake's own path (validation,
 * consent rule, duplicates, Idempotency-Key, storage, enrollment, rejection
 * records) and its outcome is answered with intake's bodies and statuses; what
 * the API checks before (key, body, rate limits, the source) answers the API's
 * envelope.
 */
export const sourceLeadsRoutes = [
  defineRoute({
    method: 'post',
    path: '/marketing_sources/{id}/leads',
    operationId: 'createMarketingSourceLead',
    summary: 'Create a lead in a source, as if its seller had posted it',
    description:
      "For automations: the same lead as a post to the source's post_url (docs/intake.md), without the secret URL. The body is a lead (LeadSubmission), validated by intake's own rules: the lead's outcome is answered with intake's bodies, not the API's envelope: 201 accepted (stored, enrolled in the source's playbook), 200 duplicate, 422 rejected with every problem listed (and counted in the source's stats), 409 for an Idempotency-Key sent again with another body. The source's consent_required and rate_limit apply. A paused source answers 404, as its post URL does. Bodies are JSON only; a lead is never answered with a redirect.",
    tag: 'Marketing sources',
    documentedBody: 'LeadSubmission',
    headers: [IDEMPOTENCY_KEY_PARAMETER],
    success: {
      status: 201,
      schema: 'IntakeAccepted',
      description: 'Accepted: the lead is stored and will be enrolled in the playbook.',
    },
    alsoSuccess: {
      status: 200,
      schema: 'IntakeDuplicate',
      description: 'Duplicate of a recent lead with the same phone.',
    },
    responses: {
      ...intakeResponseObjects([201, 200, 409, 422]),
      400: {
        description:
          'malformed_body: the body is not a JSON object; invalid_idempotency_key: the Idempotency-Key header is not 1 to 255 printable ASCII characters.',
        content: ERROR_CONTENT,
      },
      404: {
        description:
          "not_found: no such marketing source in this account (another account's, deleted), or a paused source.",
        content: ERROR_CONTENT,
      },
      413: {
        description: `payload_too_large: the body is over 256 KiB; too_many_fields: it has more than ${MAX_BODY_FIELDS} fields.`,
        content: ERROR_CONTENT,
      },
      429: {
        description:
          "rate_limited: over the per-address or per-API-key request rate, or over the source's own rate (its rate_limit, shared with its post URL); retry after Retry-After seconds.",
        headers: { 'Retry-After': { ...RETRY_AFTER_HEADER['Retry-After'], required: true } },
        content: ERROR_CONTENT,
      },
    },
    handler: async ({ req, res, params }, ctx: SourceLeadsContext) => {
      const receivedAt = new Date();
      // jsonObjectBody (app.ts) made it an object: no body at all is {}.
      const body = req.body as Record<string, unknown>;
      if (Object.keys(body).length > MAX_BODY_FIELDS) {
        throw new ApiError(413, 'too_many_fields', TOO_MANY_FIELDS_MESSAGE);
      }
      const idempotencyKey = req.get('idempotency-key') ?? null;
      if (idempotencyKey !== null && !isIdempotencyKey(idempotencyKey)) {
        throw new ApiError(
          400,
          'invalid_idempotency_key',
          `Idempotency-Key ${INVALID_IDEMPOTENCY_KEY_MESSAGE}.`,
        );
      }
      const found = await ctx.intake.findSourceById(accountIdOf(res), params.id);
      switch (found.kind) {
        case 'not_found':
          throw notFound('marketing source');
        case 'paused':
          throw new ApiError(
            404,
            'not_found',
            'The marketing source is paused: it takes no leads until it is active again.',
          );
        case 'unavailable':
          throw unavailable(res);
      }
      const result = await ctx.intake.submitTo(found.source, {
        body,
        idempotencyKey,
        evidence: { ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null, receivedAt },
      });
      switch (result.kind) {
        case 'accepted':
        case 'duplicate':
        case 'rejected': {
          ctx.leads.inc({ result: result.kind });
          noteLead(res, {
            result: result.kind,
            source_id: result.source.id,
            ...(result.kind === 'rejected'
              ? { reasons: logReasons(result.errors) }
              : { lead_id: result.leadId }),
          });
          const answer = responseOf(result);
          res.status(answer.statusCode).json(answer.body);
          return;
        }
        case 'idempotency_replay':
          noteLead(res, { result: 'replayed', source_id: result.source.id });
          res.set('Idempotent-Replayed', 'true');
          res.status(result.statusCode).json(result.body);
          return;
        case 'idempotency_conflict':
          noteLead(res, { result: 'idempotency_key_reused', source_id: result.source.id });
          res.status(409).json(idempotencyConflictBody());
          return;
        case 'rate_limited':
          throw new RateLimitedError(result.retryAfterSeconds);
        case 'not_found':
          throw notFound('marketing source');
        case 'unavailable':
          throw unavailable(res);
      }
    },
  }),
];
