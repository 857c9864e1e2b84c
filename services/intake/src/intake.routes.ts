/**
 * Transport only: method, content type, capped body, parse, one call into the
 * domain, then a switch over its result. Status codes live here and nowhere in
 * the service. Each answer notes what it was (noteAnswer) for the request's one
 * log line.
 */
import type { IncomingMessage } from 'node:http';
import {
  INTAKE_MESSAGES,
  isUtf8ContentType,
  MAX_BODY_FIELDS,
  postUrlOf,
  TOO_MANY_FIELDS_MESSAGE,
} from '@leadhook/contracts';
import {
  type ErrorBody,
  errorBody,
  INVALID_IDEMPOTENCY_KEY_MESSAGE,
  type IntakeResult,
  type IntakeService,
  idempotencyConflictBody,
  isIdempotencyKey,
  logReasons,
  NOT_FOUND_BODY,
  responseOf,
  retryableBody,
} from '@leadhook/intake-core';
import bodyParser from 'body-parser';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Counter } from 'prom-client';
import { INSTRUCTIONS_PAGE_HEADERS, instructionsPage } from './instructions.page.js';

export const INTAKE_PATH = '/marketing_sources/:accountId/:sourceKey';
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A seller retrying after an outage should wait at least this long. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface IntakeRoutesOptions {
  service: IntakeService;
  maxBodyBytes: number;
  /** The base of post URLs, as the Integration Instructions show them; else the request's own. */
  publicBaseUrl?: string;
  /** Counts each stored answer (leadhook_intake_leads_total). */
  leads?: Counter<'result'>;
}

/**
 * What the request's log line says about an intake answer: ids and codes only.
 * `result` is what happened (accepted, duplicate, rejected, replayed, not_found,
 * malformed_body, …); `reasons` are a rejection's codes, `field:code` for a lead
 * field and the bare code for a problem with a field of the seller's own.
 */
export type IntakeLogFields = {
  result: string;
  source_id?: string;
  lead_id?: string;
  reasons?: string[];
};

export function noteAnswer(res: Response, fields: IntakeLogFields): void {
  res.locals.intake = fields;
}

/** The fields noteAnswer recorded, for httpObservability's logFields. */
export function intakeLogFields(res: Response): IntakeLogFields | undefined {
  const fields: IntakeLogFields | undefined = res.locals.intake;
  return fields;
}

function mediaTypeOf(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function sendNotFound(res: Response): void {
  noteAnswer(res, { result: 'not_found' });
  res.status(404).type(JSON_TYPE).send(NOT_FOUND_BODY);
}

function sendError(res: Response, status: number, body: ErrorBody): void {
  res.status(status).json(body);
}

/** What the parsers saw of the raw body: the route tells an empty body or a non-form from a lead. */
interface RawBody {
  bytes: number;
  /** A form body with at least one `=`: at least one name=value pair. */
  hasPair: boolean;
}
const rawBodies = new WeakMap<IncomingMessage, RawBody>();
const EQUALS = 0x3d;
const AMPERSAND = 0x26;

function recordRaw(req: IncomingMessage, _res: unknown, buf: Buffer): void {
  rawBodies.set(req, { bytes: buf.length, hasPair: buf.includes(EQUALS) });
}

/** The non-empty `&`-separated segments of a form body: a bound on its pairs, counted natively. */
function formPairCount(buf: Buffer): number {
  let count = 0;
  let start = 0;
  for (;;) {
    const end = buf.indexOf(AMPERSAND, start);
    const stop = end < 0 ? buf.length : end;
    if (stop > start) count++;
    if (end < 0) return count;
    start = end + 1;
  }
}

/**
 * A form body as a record with a null prototype (a field named `__proto__` is a
 * plain property, refused by validation like any reserved name). URLSearchParams
 * is linear in the body. A name sent more than once keeps every value, in an
 * array: validation refuses it as invalid, as it does a JSON array.
 */
function parseForm(buf: Buffer): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(buf.toString('utf8'))) {
    const seen = record[name];
    if (seen === undefined) record[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else record[name] = [seen, value];
  }
  return record;
}

function sendTooManyFields(res: Response): void {
  noteAnswer(res, { result: 'too_many_fields' });
  sendError(res, 413, errorBody('too_many_fields', TOO_MANY_FIELDS_MESSAGE));
}

/**
 * 415 for anything but UTF-8 JSON and HTML-form bodies; the parsers enforce the
 * size cap (413), and a body of more than MAX_BODY_FIELDS fields is 413 too.
 */
function parseBody(maxBodyBytes: number): RequestHandler {
  const json = bodyParser.json({
    limit: maxBodyBytes,
    type: JSON_TYPE,
    strict: true,
    verify: recordRaw,
  });
  // The bytes only (inflated, capped): body-parser's form parser (qs) merges a
  // repeated name in time quadratic in its count, and counts pairs only after
  // splitting the whole body. Forms are counted, then parsed, here.
  const form = bodyParser.raw({ limit: maxBodyBytes, type: FORM_TYPE });
  return (req, res, next) => {
    const mediaType = mediaTypeOf(req);
    if (mediaType !== JSON_TYPE && mediaType !== FORM_TYPE) {
      noteAnswer(res, { result: 'unsupported_media_type' });
      return sendError(
        res,
        415,
        errorBody('unsupported_media_type', INTAKE_MESSAGES.unsupported_media_type),
      );
    }
    // UTF-8 only, as browsers send forms: another charset (UTF-7, UTF-16) would be
    // decoded into text no check of ours saw as sent.
    if (!isUtf8ContentType(req.headers['content-type'])) {
      noteAnswer(res, { result: 'unsupported_media_type' });
      return sendError(
        res,
        415,
        errorBody('unsupported_media_type', INTAKE_MESSAGES.unsupported_encoding),
      );
    }
    if (mediaType === JSON_TYPE) {
      return json(req, res, (err?: unknown) => {
        if (err) return next(err);
        const body: unknown = req.body;
        if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
          if (Object.keys(body).length > MAX_BODY_FIELDS) return sendTooManyFields(res);
        }
        next();
      });
    }
    return form(req, res, (err?: unknown) => {
      if (err) return next(err);
      const buf: unknown = req.body;
      if (!Buffer.isBuffer(buf)) return next();
      rawBodies.set(req, { bytes: buf.length, hasPair: buf.includes(EQUALS) });
      if (formPairCount(buf) > MAX_BODY_FIELDS) return sendTooManyFields(res);
      req.body = parseForm(buf);
      next();
    });
  };
}

/**
 * Why a parsed body is not a lead to validate, or null. Empty (no bytes, or no
 * body at all) is malformed, not a lead missing 16 fields. A form body that is not
 * a form (no name=value pair, or a name that starts like JSON: JSON posted with
 * the form content type) is malformed too: read as a form, the whole JSON would
 * be one field's name.
 */
function malformedMessage(req: Request, body: unknown): string | null {
  const raw = rawBodies.get(req);
  if (body === undefined || raw?.bytes === 0) return INTAKE_MESSAGES.empty_body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return INTAKE_MESSAGES.not_an_object;
  }
  if (mediaTypeOf(req) === FORM_TYPE) {
    if (!raw?.hasPair) return INTAKE_MESSAGES.not_a_form;
    if (Object.keys(body).some((name) => /^\s*[[{]/.test(name))) return INTAKE_MESSAGES.not_a_form;
  }
  return null;
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

function leadIdOf(body: unknown): string | undefined {
  return body && typeof body === 'object' && 'lead_id' in body && typeof body.lead_id === 'string'
    ? body.lead_id
    : undefined;
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

/** Whether the client would rather read HTML than JSON (a browser opening the URL). */
function prefersHtml(req: Request): boolean {
  return req.accepts([JSON_TYPE, 'text/html']) === 'text/html';
}

export function intakeRoutes(options: IntakeRoutesOptions): Router {
  const { service } = options;
  const router = express.Router();
  router.post(INTAKE_PATH, parseBody(options.maxBodyBytes), async (req, res) => {
    const body: unknown = req.body;
    const malformed = malformedMessage(req, body);
    if (malformed !== null) {
      noteAnswer(res, { result: 'malformed_body' });
      return sendError(res, 400, errorBody('malformed_body', malformed));
    }
    const idempotencyKey = req.get('idempotency-key') ?? null;
    if (idempotencyKey !== null && !isIdempotencyKey(idempotencyKey)) {
      noteAnswer(res, { result: 'invalid_idempotency_key' });
      return sendError(
        res,
        400,
        errorBody('invalid', INVALID_IDEMPOTENCY_KEY_MESSAGE, 'Idempotency-Key'),
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
        noteAnswer(res, {
          result: result.kind,
          source_id: result.source.id,
          ...(result.kind === 'rejected'
            ? { reasons: logReasons(result.errors) }
            : { lead_id: result.leadId }),
        });
        const { statusCode, body: answer } = responseOf(result);
        return sendOutcome(req, res, result.source.redirectUrl, statusCode, answer);
      }
      case 'idempotency_replay': {
        const leadId = leadIdOf(result.body);
        noteAnswer(res, {
          result: 'replayed',
          source_id: result.source.id,
          ...(leadId ? { lead_id: leadId } : {}),
        });
        res.set('Idempotent-Replayed', 'true');
        return sendOutcome(req, res, result.source.redirectUrl, result.statusCode, result.body);
      }
      case 'idempotency_conflict':
        noteAnswer(res, { result: 'idempotency_key_reused', source_id: result.source.id });
        return sendError(res, 409, idempotencyConflictBody());
      case 'rate_limited':
        noteAnswer(res, { result: 'rate_limited', source_id: result.source.id });
        res.set('Retry-After', String(result.retryAfterSeconds));
        return sendError(res, 429, retryableBody('rate_limited', INTAKE_MESSAGES.rate_limited));
      case 'not_found':
        return sendNotFound(res);
      case 'unavailable':
        noteAnswer(res, { result: 'unavailable' });
        res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        return sendError(res, 503, retryableBody('unavailable', INTAKE_MESSAGES.unavailable));
    }
  });

  // Any other method (OPTIONS is a CORS preflight, answered before this router).
  // A live post URL answers 405, or, to a browser, its Integration Instructions;
  // anything else is the one 404, whatever the method.
  router.all(INTAKE_PATH, async (req, res) => {
    const accountId = String(req.params.accountId);
    const sourceKey = String(req.params.sourceKey);
    const found = await service.findSource(accountId, sourceKey);
    if (found.kind === 'not_found') return sendNotFound(res);
    if (found.kind === 'unavailable') {
      noteAnswer(res, { result: 'unavailable' });
      res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return sendError(res, 503, retryableBody('unavailable', INTAKE_MESSAGES.unavailable));
    }
    const { source } = found;
    if ((req.method === 'GET' || req.method === 'HEAD') && prefersHtml(req)) {
      noteAnswer(res, { result: 'instructions', source_id: source.id });
      const base = options.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      const postUrl = postUrlOf(base.replace(/\/+$/, ''), accountId, sourceKey);
      res.set(INSTRUCTIONS_PAGE_HEADERS);
      return res
        .status(200)
        .type('html')
        .send(
          instructionsPage({
            id: source.id,
            name: source.name,
            post_url: postUrl,
            consent_required: source.consentRequired,
          }),
        );
    }
    noteAnswer(res, { result: 'method_not_allowed', source_id: source.id });
    res.set('Allow', 'POST');
    return sendError(res, 405, errorBody('method_not_allowed', INTAKE_MESSAGES.method_not_allowed));
  });
  return router;
}
