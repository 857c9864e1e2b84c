import { type CreatedAccount, createAccount, createPrisma, type PrismaClient } from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { createLogger, createMetrics } from '@leadhook/observability';
import type { Express } from 'express';
import supertest from 'supertest';
import { createApp } from '../app.js';

export const PUBLIC_BASE_URL = 'https://leads.example.test';

export interface Harness {
  app: Express;
  prisma: PrismaClient;
  db: TestDatabase;
  /** An account made through the same function the CLI uses (a factory, not a fixture). */
  newAccount(name?: string): Promise<CreatedAccount>;
  /** supertest requests with the account's bearer key. */
  as(apiKey: string): AuthedAgent;
  close(): Promise<void>;
}

type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type AuthedAgent = Record<Verb, (path: string) => supertest.Test>;

/** One fresh database per test file, the real app on it, closed in afterAll. */
export async function startHarness(): Promise<Harness> {
  const db = await createTestDatabase();
  const prisma = createPrisma({ databaseUrl: db.url, poolMax: 4 });
  const app = createApp({
    prisma,
    logger: createLogger({ service: 'api-test', level: 'silent' }),
    metrics: createMetrics('api-test'),
    options: { publicBaseUrl: `${PUBLIC_BASE_URL}/` },
  });
  const request = supertest(app);
  let counter = 0;
  return {
    app,
    prisma,
    db,
    newAccount: (name) => createAccount(prisma, name ?? `Account ${++counter}`),
    as: (apiKey) => {
      const auth = (test: supertest.Test) => test.set('authorization', `Bearer ${apiKey}`);
      return {
        get: (path) => auth(request.get(path)),
        post: (path) => auth(request.post(path)),
        put: (path) => auth(request.put(path)),
        patch: (path) => auth(request.patch(path)),
        delete: (path) => auth(request.delete(path)),
      };
    },
    close: async () => {
      await prisma.$disconnect();
      await db.drop();
    },
  };
}

/** A valid playbook body; override what a test is about. */
export function playbookBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Auto quotes',
    steps: [
      { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, thanks for your request!' },
      { type: 'call', delay_seconds: 300 },
    ],
    ...overrides,
  };
}

export function sourceBody(playbookId: string, overrides: Record<string, unknown> = {}) {
  return { name: 'Acme Leads', source_type: 'vendor', playbook_id: playbookId, ...overrides };
}
