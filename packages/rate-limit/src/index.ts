export type { RateDecision, RateLimiter, RateLimiterOptions } from './rate-limit.js';
export { createRateLimiter } from './rate-limit.js';
