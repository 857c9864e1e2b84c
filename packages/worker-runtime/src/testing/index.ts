export type { Owner } from './fixtures.js';
export { createAttempt, createIdempotencyKey, createOutboxRow } from './fixtures.js';
