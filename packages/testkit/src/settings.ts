/**
 * Where tests find their stores: a fresh database per test file (a clone of the
 * migrated template, @leadhook/db/testing) and the machine's Redis, which every
 * test file shares under a queue prefix of its own.
 */
import { randomBytes } from 'node:crypto';
import { createPool, createPrisma, type Pool, type PrismaClient } from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';

export type { TestDatabase } from '@leadhook/db/testing';
export { addPastHistoryPartitions, createTestDatabase, rowsRead } from '@leadhook/db/testing';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The settings a worker process under test starts with: `databaseUrl`, the
 * local Redis and a queue prefix of its own, so tests never share queues;
 * `env` on top.
 */
export function workerEnv(
  databaseUrl: string,
  env: Record<string, string> = {},
): Record<string, string> & { QUEUE_PREFIX: string } {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `t${randomBytes(5).toString('hex')}`,
    ...env,
  };
}

/** A test file's database with a Prisma client and a pg pool on it. */
export interface TestStores {
  db: TestDatabase;
  prisma: PrismaClient;
  pool: Pool;
  /** Disconnects both and drops the database. */
  close(): Promise<void>;
}

export async function createTestStores({
  poolMax = 2,
  prismaPoolMax = 4,
}: {
  poolMax?: number;
  prismaPoolMax?: number;
} = {}): Promise<TestStores> {
  const db = await createTestDatabase();
  const prisma = createPrisma({ databaseUrl: db.url, poolMax: prismaPoolMax });
  const pool = createPool({ databaseUrl: db.url, max: poolMax });
  return {
    db,
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
      await db.drop();
    },
  };
}
