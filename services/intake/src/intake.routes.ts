/**
 * Transport only: content type, capped body, parse, one call into
 * the domain, then a switch over its result. Status codes live here and nowhere
 * in the service.
 */
import bodyParser from 'body-parser';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Counter } from 'prom-client';
import { type ErrorBody, errorBody, NOT_FOUND_BODY, retryableBody } from './intake.responses.js';
import { type IntakeResult, type IntakeService, responseOf } from './intake.service.js';

export const INTAKE_PATH = '/marketing_sources/:accountId/:sourceKey';
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Printable ASCII, as Stripe accepts: long enough for a UUID or a hash. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** A seller retrying after an outage should wait at least this long. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface IntakeRoutesOptions {
  service: IntakeService;
  maxBodyBytes: number;
  /** Counts each stored answer (leadhook_intake_leads_total). */
  leads?: Counter<'result'>;
}

function mediaTypeOf(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function sendNotFound(res: Response): void {
  res.status(404).type(JSON_TYPE).send(NOT_FOUND_BODY);
}

function sendError(res: Response, status: number, body: ErrorBody): void {
  res.status(status).json(body);
}

/** 415 for anything but JSON and HTML-form bodies; the parsers enforce the size cap (413). */
function parseBody(maxBodyBytes: number): RequestHandler {
  const json = bodyParser.json({ limit: maxBodyBytes, type: JSON_TYPE, strict: true });
  const form = bodyParser.urlencoded({
    limit: maxBodyBytes,
    type: FORM_TYPE,
    extended: false,
    // The byte cap already bounds the number of fields; extras are bounded (and
    // answered with 422 too_many_fields) by validation, not by the parser.
    parameterLimit: maxBodyBytes,
  });
  return (req, res, next) => {
    const mediaType = mediaTypeOf(req);
    if (mediaType === JSON_TYPE) return json(req, res, next);
    if (mediaType === FORM_TYPE) return form(req, res, next);
    sendError(
      res,
      415,
      errorBody('unsupported_media_type', `Send the lead as ${JSON_TYPE} or ${FORM_TYPE}.`),
    );
  };
}

/** `url` with `error=<code>` added to its query, whatever query it already has. */
export function withErrorParam(url: string, code: string): string {
  const target = new URL(url);
  target.searchParams.append('error', code);
  return target.toString();
}

function firstErrorCode(body: unknown): string {
  if (body && typeof body === 'object' && 'errors' in body && Array.isArray(body.errors)) {
    const first: unknown = body.errors[0];
    if (first && typeof first === 'object' && 'code' in first && typeof first.code === 'string') {
      return first.code;
    }
  }
  return 'invalid';
}

/**
 * A stored outcome's answer: JSON, or for an HTML form posted to a source with a
 * redirect_url, 303 See Other to it (with ?error=<first code> when rejected).
 */
function sendOutcome(
  req: Request,
  res: Response,
  redirectUrl: string | null,
  statusCode: number,
  body: unknown,
): void {
  if (redirectUrl !== null && mediaTypeOf(req) === FORM_TYPE) {
    if (statusCode === 200 || statusCode === 201) {
      res.redirect(303, redirectUrl);
      return;
    }
    if (statusCode === 422) {
      res.redirect(303, withErrorParam(redirectUrl, firstErrorCode(body)));
      return;
    }
  }
  res.status(statusCode).json(body);
}

export function intakeRoutes(options: IntakeRoutesOptions): Router {
  const { service } = options;
  const router = express.Router();
  router.post(INTAKE_PATH, parseBody(options.maxBodyBytes), async (req, res) => {
    const body: unknown = req.body;
    if (body === undefined) {
      return sendError(res, 400, errorBody('malformed_body', 'The body is empty.'));
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return sendError(res, 400, errorBody('malformed_body', 'The body must be a JSON object.'));
    }
    const idempotencyKey = req.get('idempotency-key') ?? null;
    if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      return sendError(
        res,
        400,
        errorBody('invalid', 'must be 1 to 255 printable ASCII characters', 'Idempotency-Key'),
      );
    }
    const result: IntakeResult = await service.submit({
      accountId: String(req.params.accountId),
      sourceKey: String(req.params.sourceKey),
      body: body as Record<string, unknown>,
      idempotencyKey,
      evidence: {
        ip: req.ip ?? null,
        userAgent: req.get('user-agent') ?? null,
        receivedAt: res.locals.receivedAt instanceof Date ? res.locals.receivedAt : new Date(),
      },
    });

    switch (result.kind) {
      case 'accepted':
      case 'duplicate':
      case 'rejected': {
        options.leads?.inc({ result: result.kind });
        const { statusCode, body: answer } = responseOf(result);
        return sendOutcome(req, res, result.source.redirectUrl, statusCode, answer);
      }
      case 'idempotency_replay':
        res.set('Idempotent-Replayed', 'true');
        return sendOutcome(req, res, result.source.redirectUrl, result.statusCode, result.body);
      case 'idempotency_conflict':
        return sendError(
          res,
          409,
          errorBody(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different body. Use a new key for a new lead.',
            'Idempotency-Key',
          ),
        );
      case 'rate_limited':
        res.set('Retry-After', String(result.retryAfterSeconds));
        return sendError(
          res,
          429,
          retryableBody(
            'rate_limited',
            'Too many requests for this source. Retry after the delay in Retry-After.',
          ),
        );
      case 'not_found':
        return sendNotFound(res);
      case 'unavailable':
        res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        return sendError(
          res,
          503,
          retryableBody(
            'unavailable',
            'The lead could not be stored right now. Nothing was kept; retry it.',
          ),
        );
    }
  });
  return router;
}
