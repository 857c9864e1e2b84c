import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SourceRateLimiter {
  /** Counts one request of the source against `perSecond` (0 = unlimited). */
  consume(sourceId: string, perSecond: number): Promise<RateDecision>;
}

/** Window of the burst allowance: up to `perSecond` extra requests per this many seconds. */
const BURST_WINDOW_SECONDS = 10;

/**
 * Per-source limit shared by every intake process through Redis: `perSecond`
 * requests each second, and bursts up to twice that (the extra `perSecond` come
 * from a second bucket that refills every BURST_WINDOW_SECONDS).
 *
 * Fail-open on purpose: when Redis is unreachable the request goes through. A lead
 * accepted during a Redis outage is a lead kept (PostgreSQL is the truth and the
 * outbox enqueues it later); throttling on a missing counter would turn away
 * sellers' leads for our outage.
 */
export function createSourceRateLimiter(
  redis: Redis,
  onRedisError: (err: unknown) => void,
  keyPrefix = 'leadhook',
): SourceRateLimiter {
  const limiters = new Map<number, BurstyRateLimiter>();
  const limiterFor = (perSecond: number): BurstyRateLimiter => {
    let limiter = limiters.get(perSecond);
    if (!limiter) {
      limiter = new BurstyRateLimiter(
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${keyPrefix}:intake-rl-${perSecond}`,
          points: perSecond,
          duration: 1,
          // Answer at once when the client is not connected, instead of waiting on it.
          rejectIfRedisNotReady: true,
        }),
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${keyPrefix}:intake-burst-${perSecond}`,
          points: perSecond,
          duration: BURST_WINDOW_SECONDS,
          rejectIfRedisNotReady: true,
        }),
      );
      limiters.set(perSecond, limiter);
    }
    return limiter;
  };

  return {
    async consume(sourceId, perSecond) {
      if (perSecond <= 0) return { allowed: true };
      try {
        await limiterFor(perSecond).consume(sourceId);
        return { allowed: true };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return {
            allowed: false,
            retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
          };
        }
        onRedisError(err);
        return { allowed: true };
      }
    },
  };
}
