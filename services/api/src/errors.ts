import { isDatabaseUnavailable } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ErrorDetail } from './validation.js';

/**
 * The one error type of the management API. Routes throw it for the expected
 * cases a service returned as results; the error middleware below is the only
 * place that turns anything into an HTTP answer with the contract's envelope.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: readonly ErrorDetail[];

  constructor(status: number, code: string, message: string, details: readonly ErrorDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function notFound(what = 'resource'): ApiError {
  return new ApiError(404, 'not_found', `No such ${what}.`);
}

/** `result` as the service found it, or the 404 for `what` when it found none. */
export function found<R extends { kind: string }>(
  result: R,
  what: string,
): Exclude<R, { kind: 'not_found' }> {
  if (result.kind === 'not_found') throw notFound(what);
  return result as Exclude<R, { kind: 'not_found' }>;
}

export function validationFailed(details: readonly ErrorDetail[]): ApiError {
  const count = details.length;
  return new ApiError(
    422,
    'validation_failed',
    `The request has ${count} invalid field${count === 1 ? '' : 's'}.`,
    details,
  );
}

export function unauthorized(): ApiError {
  return new ApiError(
    401,
    'unauthorized',
    'A valid API key is required: Authorization: Bearer <API_KEY>.',
  );
}

/** A 429: the error middleware sends `Retry-After` with it. */
export class RateLimitedError extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', `Too many requests: retry after ${retryAfterSeconds} s.`);
    this.name = 'RateLimitedError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Unknown routes answer the envelope too. */
export const routeNotFound: RequestHandler = (_req, _res, next) => {
  next(new ApiError(404, 'not_found', 'No such route.'));
};

/** What body-parser throws: a status and a `type` naming the failure. */
function bodyParserFailure(err: unknown): ApiError | null {
  if (typeof err !== 'object' || err === null || !('type' in err)) return null;
  switch (err.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'malformed_body', 'The body is not valid JSON.');
    case 'entity.too.large':
      return new ApiError(413, 'payload_too_large', 'The body is over the size limit.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', 'Unsupported body encoding.');
    default:
      return null;
  }
}

/** Maps every error to the envelope; unexpected ones are logged once with the request id. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    let apiError = err instanceof ApiError ? err : bodyParserFailure(err);
    if (!apiError) {
      const requestId = res.getHeader('x-request-id');
      if (isDatabaseUnavailable(err)) {
        logger.warn({ err, request_id: requestId }, 'database unavailable');
        apiError = new ApiError(503, 'service_unavailable', 'Try again shortly.');
        res.setHeader('retry-after', '5');
      } else {
        logger.error({ err, request_id: requestId }, 'unexpected error');
        apiError = new ApiError(500, 'internal_error', 'Something went wrong on our side.');
      }
    }
    if (apiError.status === 401) res.setHeader('www-authenticate', 'Bearer');
    if (apiError instanceof RateLimitedError) {
      res.setHeader('retry-after', String(apiError.retryAfterSeconds));
    }
    res.status(apiError.status).json({
      error: { code: apiError.code, message: apiError.message, details: apiError.details },
    });
  };
}
