export type { Owner } from './fixtures.js';
export {
  createAttempt,
  createDelivery,
  createIdempotencyKey,
  createOutboxRow,
  createOwner,
} from './fixtures.js';
