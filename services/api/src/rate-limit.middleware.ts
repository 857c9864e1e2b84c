import type { RateLimiter } from '@leadhook/rate-limit';
import type { Request, RequestHandler, Response } from 'express';
import { RateLimitedError } from './errors.js';

/**
 * Counts each request against `perSecond` under the key `keyOf` gives (0 turns
 * the limit off), and answers 429 with Retry-After once it is spent. It runs
 * before the work it protects: the per-address limit before the body is parsed
 * and the key looked up, so a flood of wrong keys from one address is cut off
 * without a database round trip each.
 */
export function rateLimit(
  limiter: RateLimiter,
  perSecond: number,
  keyOf: (req: Request, res: Response) => string,
): RequestHandler {
  return async (req, res, next) => {
    if (perSecond <= 0) {
      next();
      return;
    }
    const decision = await limiter.consume(keyOf(req, res), perSecond);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    next();
  };
}
