import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export interface PrismaOptions {
  databaseUrl: string;
  /** Pool size of this process's connection to PostgreSQL. */
  poolMax?: number;
}

/** A Prisma client on the pg driver adapter (Prisma 7, no native engine). */
export function createPrisma(options: PrismaOptions): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: options.databaseUrl,
    max: options.poolMax ?? 10,
    // Fail fast when PostgreSQL is away, so a request answers 503 instead of hanging.
    connectionTimeoutMillis: 3000,
  });
  return new PrismaClient({ adapter });
}

export { Prisma } from './generated/prisma/client.js';
export type { PrismaClient };
