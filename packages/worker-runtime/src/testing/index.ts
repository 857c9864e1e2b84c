export type { Owner } from './fixtures.js';
export {
  createAttempt,
  createDelivery,
  createIdempotencyKey,
  createOutboxRow,
  createOwner,
} from './fixtures.js';
export { PrivateRedis } from './private-redis.js';
export { closedPort, freePort, type WaitOptions, waitFor } from './wait.js';
