import { randomBytes } from 'node:crypto';
import type { CreatedAccount, Pool, PrismaClient } from '@leadhook/db';
import { createLogger, createMetrics } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { anAccount, createTestStores, TEST_REDIS_URL, type TestDatabase } from '@leadhook/testkit';
import type { Express } from 'express';
import supertest from 'supertest';
import { type ApiDeps, type ApiOptions, createApp, createInternalApp } from '../app.js';
import { expectDocumentedResponse } from './openapi-responses.js';

export const PUBLIC_BASE_URL = 'https://leads.example.test';

export interface Harness {
  app: Express;
  /** The internal port's app (/metrics, /readyz with its checks), on the app's metrics. */
  internal: Express;
  prisma: PrismaClient;
  /** The pg pool the app's lead action runs intake's SQL on. */
  pool: Pool;
  db: TestDatabase;
  /** Producers on a queue prefix of this test file's own. */
  queues: QueueSet;
  /** That prefix: a worker started on it consumes what the app enqueues. */
  queuePrefix: string;
  /** An account made through the same function the CLI uses (a factory, not a fixture). */
  newAccount(name?: string): Promise<CreatedAccount>;
  /** A new account's agent and a playbook of it (playbookBody()), made through the API. */
  owner(): Promise<ApiOwner>;
  /** A marketing source of the owner's playbook (sourceBody()), made through the API: its id. */
  newSource(
    owner: Pick<ApiOwner, 'api' | 'playbookId'>,
    overrides?: Record<string, unknown>,
  ): Promise<string>;
  /**
   * supertest requests with the account's bearer key. Every answer is checked
   * against the OpenAPI document (testing/openapi-responses.ts) before the test
   * sees it.
   */
  as(apiKey: string): AuthedAgent;
  /** supertest requests without a key, checked the same way. */
  anonymous: AuthedAgent;
  /** Another app on the same database and queues, with other API options (e.g. private targets). */
  withOptions(options: Partial<ApiOptions>): { as(apiKey: string): AuthedAgent };
  close(): Promise<void>;
}

export interface ApiOwner {
  api: AuthedAgent;
  apiKey: string;
  accountId: string;
  playbookId: string;
}

type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type AuthedAgent = Record<Verb, (path: string) => supertest.Test>;

/**
 * One fresh database per test file, the real app on it, closed in afterAll.
 * `redisUrl`: another Redis than the machine's (a PrivateRedis a test stops).
 */
export async function startHarness(
  options: Partial<ApiOptions> = {},
  { redisUrl = TEST_REDIS_URL }: { redisUrl?: string } = {},
): Promise<Harness> {
  const stores = await createTestStores({ poolMax: 1 });
  const { db, prisma } = stores;
  const prefix = `test-api-${randomBytes(4).toString('hex')}`;
  const queues = new QueueSet({ redisUrl, prefix });
  const depsWith = (extra: Partial<ApiOptions>): ApiDeps => ({
    prisma,
    pool: stores.pool,
    logger: createLogger({ service: 'api-test', level: 'silent' }),
    metrics: createMetrics('api-test'),
    queues,
    // Rate limits off unless a test turns them on: every test file sends from
    // 127.0.0.1, many requests a second. Counters live under the file's prefix.
    options: {
      publicBaseUrl: `${PUBLIC_BASE_URL}/`,
      rateLimitPerKey: 0,
      rateLimitPerAddress: 0,
      redisKeyPrefix: prefix,
      ...options,
      ...extra,
    },
  });
  const appWith = (extra: Partial<ApiOptions>) => createApp(depsWith(extra));
  const deps = depsWith({});
  const app = createApp(deps);
  let counter = 0;
  const newAccount: Harness['newAccount'] = (name) =>
    anAccount(prisma, name ?? `Account ${++counter}`);
  const as = authedAgent(app);
  return {
    app,
    internal: createInternalApp(deps),
    prisma,
    pool: stores.pool,
    db,
    queues,
    queuePrefix: prefix,
    newAccount,
    as,
    owner: async () => {
      const { api_key: apiKey, account_id: accountId } = await newAccount();
      const api = as(apiKey);
      const playbookId: string = (await api.post('/api/v1/playbooks').send(playbookBody())).body.id;
      return { api, apiKey, accountId, playbookId };
    },
    newSource: async ({ api, playbookId }, overrides = {}) =>
      (await api.post('/api/v1/marketing_sources').send(sourceBody(playbookId, overrides))).body.id,
    anonymous: agent(app, (test) => test),
    withOptions: (extra) => ({ as: authedAgent(appWith(extra)) }),
    close: async () => {
      // The jobs this file enqueued live under its own prefix: remove them.
      await queues.get('activity').obliterate({ force: true });
      await queues.get('delivery').obliterate({ force: true });
      await queues.get('enrollment').obliterate({ force: true });
      await queues.close();
      await stores.close();
    },
  };
}

function authedAgent(app: Express): (apiKey: string) => AuthedAgent {
  return (apiKey) => agent(app, (test) => test.set('authorization', `Bearer ${apiKey}`));
}

/**
 * Requests whose answers must match the OpenAPI document: supertest runs the
 * check when the test awaits the request, before any `.expect` the test adds.
 */
function agent(app: Express, prepare: (test: supertest.Test) => supertest.Test): AuthedAgent {
  const request = supertest(app);
  const checked = (verb: Verb) => (path: string) =>
    prepare(request[verb](path)).expect((res) => expectDocumentedResponse(verb, path, res));
  return {
    get: checked('get'),
    post: checked('post'),
    put: checked('put'),
    patch: checked('patch'),
    delete: checked('delete'),
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
