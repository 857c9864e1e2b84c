/**
 * Test wiring for intake: a fresh database per test file, real Redis with a unique
 * queue prefix, createApp under supertest, and factories for accounts, sources
 * and leads. Not part of the build (tsconfig excludes src/testing).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createLeadValidator } from '@leadhook/contracts';
import { generateIntakeKey, type Pool, type PrismaClient } from '@leadhook/db';
import { createLogger, createMetrics } from '@leadhook/observability';
import { createRedis, QueueSet } from '@leadhook/queue';
import {
  anAccount,
  aPlaybook,
  aSource,
  createTestStores,
  intakeOpenApi,
  responseChecker,
  TEST_REDIS_URL,
  type TestDatabase,
} from '@leadhook/testkit';
import type { Express, Router } from 'express';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { createApp, type IntakeOptions } from '../app.js';

// The api serves the OpenAPI document that describes the intake endpoint too;
// @leadhook/testkit keeps its intake part for these tests.
const intakeDocument = intakeOpenApi();
const { documentedPath, responseProblems } = responseChecker({
  document: intakeDocument.document,
});

export interface TestSource {
  accountId: string;
  sourceId: string;
  playbookId: string;
  key: string;
  /** The post path: /marketing_sources/{account_id}/{key}. */
  path: string;
}

export interface SourceSpec {
  accountId?: string;
  name?: string;
  status?: 'active' | 'paused';
  rateLimit?: number | null;
  redirectUrl?: string | null;
  duplicateWindowDays?: number | null;
  consentRequired?: 'any' | 'recognised';
}

export interface Harness {
  /** The app, its intake answers checked against the OpenAPI document (supertest takes it). */
  app: RequestListener;
  db: TestDatabase;
  pool: Pool;
  prisma: PrismaClient;
  queues: QueueSet;
  redis: Redis;
  prefix: string;
  /** Every log line the app wrote. */
  logLines: string[];
  makeSource(spec?: SourceSpec): Promise<TestSource>;
  /** POSTs `body` to `source`'s intake URL on the app with `headers` (a supertest request: await it). */
  post(
    source: Pick<TestSource, 'path'>,
    body: string | object,
    headers?: Record<string, string>,
  ): request.Test;
  /**
   * A live source and three whose URL no longer is: one paused, one deleted,
   * one whose key was rotated (its old path is returned).
   */
  makeDeadSources(): Promise<{
    active: TestSource;
    paused: TestSource;
    deleted: TestSource;
    rotated: TestSource;
  }>;
  /** Builds another app on this harness's database (e.g. with other options or Redis). */
  buildApp(overrides?: {
    pool?: Pool;
    redis?: Redis;
    queues?: QueueSet;
    options?: Partial<IntakeOptions>;
    /** Routes served before the catch-all 404 (e.g. healthRoutes). */
    health?: Router;
  }): RequestListener;
  close(): Promise<void>;
}

export interface HarnessOptions {
  redisUrl?: string;
  options?: Partial<IntakeOptions>;
}

/** The headers of a form post (the browser's form encoding). */
export const FORM_HEADERS = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** A fixed clock for "a past date", so tests do not depend on today. */
export const TEST_NOW = new Date('2026-11-22T15:04:05.000Z');

export async function createHarness(harnessOptions: HarnessOptions = {}): Promise<Harness> {
  const redisUrl = harnessOptions.redisUrl ?? TEST_REDIS_URL;
  const stores = await createTestStores({ poolMax: 12, prismaPoolMax: 2 });
  const { db, pool, prisma } = stores;
  const prefix = `test-intake-${randomBytes(4).toString('hex')}`;
  const queues = new QueueSet({ redisUrl, prefix });
  const redis = createRedis(redisUrl);
  const logLines: string[] = [];
  const logger = createLogger({
    service: 'intake',
    level: 'info',
    destination: { write: (line: string) => void logLines.push(line) },
  });
  const validate = createLeadValidator({ now: () => TEST_NOW });
  const options: IntakeOptions = {
    maxBodyBytes: 65_536,
    defaultRateLimitPerSecond: 0,
    duplicateWindowDays: 30,
    trustProxy: false,
    ...harnessOptions.options,
  };
  const undocumented: string[] = [];
  const buildApp: Harness['buildApp'] = (overrides = {}) =>
    checkedAgainstOpenApi(
      createApp({
        pool: overrides.pool ?? pool,
        queues: overrides.queues ?? queues,
        redis: overrides.redis ?? redis,
        logger,
        metrics: createMetrics('intake'),
        options: { ...options, ...overrides.options },
        validate,
        ...(overrides.health ? { health: overrides.health } : {}),
      }),
      undocumented,
    );

  const makeSource: Harness['makeSource'] = async (spec = {}) => {
    const accountId = spec.accountId ?? (await anAccount(prisma)).account_id;
    if (spec.duplicateWindowDays !== undefined) {
      await prisma.account.update({
        where: { id: accountId },
        data: { duplicateWindowDays: spec.duplicateWindowDays },
      });
    }
    const playbookId = await aPlaybook(prisma, { accountId, name: 'Test playbook' });
    const source = await aSource(prisma, {
      accountId,
      playbookId,
      name: spec.name ?? 'Test vendor',
      ...(spec.status ? { status: spec.status } : {}),
      rateLimit: spec.rateLimit ?? null,
      redirectUrl: spec.redirectUrl ?? null,
      ...(spec.consentRequired ? { consentRequired: spec.consentRequired } : {}),
    });
    return {
      accountId,
      sourceId: source.id,
      playbookId,
      key: source.intakeKey,
      path: `/marketing_sources/${accountId}/${source.intakeKey}`,
    };
  };

  const makeDeadSources: Harness['makeDeadSources'] = async () => {
    const active = await makeSource();
    const paused = await makeSource({ status: 'paused' });
    const deleted = await makeSource();
    await prisma.marketingSource.update({
      where: { id: deleted.sourceId },
      data: { deletedAt: new Date() },
    });
    const rotated = await makeSource();
    await prisma.marketingSource.update({
      where: { id: rotated.sourceId },
      data: { intakeKey: generateIntakeKey(), keyRotatedAt: new Date() },
    });
    return { active, paused, deleted, rotated };
  };

  const app = buildApp();
  return {
    app,
    db,
    pool,
    prisma,
    queues,
    redis,
    prefix,
    logLines,
    makeSource,
    post: (source, body, headers = {}) => request(app).post(source.path).set(headers).send(body),
    makeDeadSources,
    buildApp,
    async close() {
      // The check's verdict is reported even when a cleanup step fails.
      const verdict =
        undocumented.length > 0
          ? new Error(
              `Intake answers that do not match the OpenAPI document:\n- ${undocumented.join('\n- ')}`,
            )
          : undefined;
      try {
        await queues
          .get('enrollment')
          .obliterate({ force: true })
          .catch(() => {});
        await queues.close();
        redis.disconnect();
        await stores.close();
      } catch (err) {
        throw verdict ?? err;
      }
      if (verdict) throw verdict;
    },
  };
}

/**
 * The app, with every answer to a POST or GET of the intake endpoint checked against the
 * OpenAPI document as it is sent (its status, required headers and body schema);
 * what does not match is added to `problems`, and close() fails the test file with
 * them. The body is what express hands to res.end (res.send and res.redirect end
 * with the whole body at once; the intake never streams an answer).
 */
function checkedAgainstOpenApi(app: Express, problems: string[]): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const method = req.method === 'POST' || req.method === 'GET' ? req.method : undefined;
    if (method && documentedPath(url) === intakeDocument.path) {
      const end = res.end;
      res.end = function (this: ServerResponse, ...args: unknown[]) {
        const [chunk] = args;
        const text =
          typeof chunk === 'string' || Buffer.isBuffer(chunk) ? chunk.toString() : undefined;
        const headers = Object.fromEntries(
          Object.entries(res.getHeaders()).map(([k, v]) => [
            k,
            typeof v === 'number' ? String(v) : v,
          ]),
        );
        const json = String(headers['content-type'] ?? '').startsWith('application/json');
        const found = responseProblems(method.toLowerCase(), url, {
          status: res.statusCode,
          headers,
          ...(text === undefined ? {} : { text }),
          body: json && text ? JSON.parse(text) : undefined,
        });
        problems.push(...found);
        return end.apply(this, args as Parameters<typeof end>);
      } as typeof res.end;
    }
    app(req, res);
  };
}

/** Counts rows of a table (optionally filtered by a SQL condition with parameters). */
export async function countRows(
  pool: Pool,
  table: 'leads' | 'submissions' | 'outbox' | 'idempotency_keys',
  where = 'true',
  values: unknown[] = [],
): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`,
    values,
  );
  return rows[0]?.n ?? 0;
}
