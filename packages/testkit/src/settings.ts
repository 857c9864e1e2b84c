/**
 * Where tests find their stores: a fresh database per test file (a clone of the
 * migrated template, @leadhook/db/testing) and the machine's Redis, which every
 * test file shares under a queue prefix of its own.
 */
export type { TestDatabase } from '@leadhook/db/testing';
export { createTestDatabase, rowsRead } from '@leadhook/db/testing';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
