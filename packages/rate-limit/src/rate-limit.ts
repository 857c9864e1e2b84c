import type { Cluster, Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request of `key` against `perSecond` (0 = unlimited). */
  consume(key: string, perSecond: number): Promise<RateDecision>;
}

export interface RateLimiterOptions {
  /**
   * A single Redis or a Cluster: each counter is one key, and each of its scripts
   * touches that key only, so a cluster serves it from the key's own slot.
   */
  redis: Redis | Cluster;
  /** Called with each Redis failure; the request was let through. */
  onRedisError: (err: unknown) => void;
  /** The deployment's Redis key prefix (QUEUE_PREFIX). */
  keyPrefix: string;
  /** What is limited (`intake`, `api-key`, `api-address`): keeps the counters apart. */
  name: string;
}

/** Window of the burst allowance: up to `perSecond` extra requests per this many seconds. */
const BURST_WINDOW_SECONDS = 10;

/**
 * A limit shared by every process through Redis: `perSecond` requests of one key
 * each second, and bursts up to twice that (the extra `perSecond` come from a
 * second bucket that refills every BURST_WINDOW_SECONDS). rate-limiter-flexible
 * keeps each counter in one Redis key with an atomic script, so any number of
 * processes count together.
 *
 * Fail-open on purpose: when Redis is unreachable the request goes through. A lead
 * accepted during a Redis outage is a lead kept (PostgreSQL is the truth and the
 * outbox enqueues it later), and an owner's API call is not refused for our
 * outage; throttling on a missing counter would turn them away.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { redis, onRedisError, keyPrefix, name } = options;
  const limiters = new Map<number, BurstyRateLimiter>();
  const limiterFor = (perSecond: number): BurstyRateLimiter => {
    let limiter = limiters.get(perSecond);
    if (!limiter) {
      limiter = new BurstyRateLimiter(
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${keyPrefix}:${name}-rl-${perSecond}`,
          points: perSecond,
          duration: 1,
          // Answer at once when the client is not connected, instead of waiting on it.
          rejectIfRedisNotReady: true,
        }),
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${keyPrefix}:${name}-burst-${perSecond}`,
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
    async consume(key, perSecond) {
      if (perSecond <= 0) return { allowed: true };
      try {
        await limiterFor(perSecond).consume(key);
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
