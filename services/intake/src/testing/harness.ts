/**
 * Test wiring for intake: a fresh database per test file, real Redis with a unique
 * queue prefix, createApp under supertest, and factories for accounts, sources
 * and leads. Not part of the build (tsconfig excludes src/testing).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createLeadValidator, toE164 } from '@leadhook/contracts';
import {
  createAccount,
  createPool,
  createPrisma,
  generateIntakeKey,
  newId,
  type Pool,
  type PrismaClient,
} from '@leadhook/db';
import { createTestDatabase, type TestDatabase } from '@leadhook/db/testing';
import { createLogger, createMetrics } from '@leadhook/observability';
import { createRedis, QueueSet } from '@leadhook/queue';
import type { Express, Router } from 'express';
import type { Redis } from 'ioredis';
// The API serves the OpenAPI document that describes the intake endpoint too; its
// tests' response check is the one this harness runs.
import { INTAKE_PATH } from '../../../api/src/openapi.js';
import { documentedPath, responseProblems } from '../../../api/src/testing/openapi-responses.js';
import { createApp, type IntakeOptions } from '../app.js';

export { waitFor } from '@leadhook/testkit';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

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

/** A fixed clock for "a past date", so tests do not depend on today. */
export const TEST_NOW = new Date('2026-11-22T15:04:05.000Z');

export async function createHarness(harnessOptions: HarnessOptions = {}): Promise<Harness> {
  const redisUrl = harnessOptions.redisUrl ?? REDIS_URL;
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, max: 12 });
  const prisma = createPrisma({ databaseUrl: db.url, poolMax: 2 });
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
    const accountId = spec.accountId ?? (await createAccount(prisma, 'Test account')).account_id;
    if (spec.duplicateWindowDays !== undefined) {
      await prisma.account.update({
        where: { id: accountId },
        data: { duplicateWindowDays: spec.duplicateWindowDays },
      });
    }
    const playbook = await prisma.playbook.create({
      data: { id: newId('playbook'), accountId, name: 'Test playbook' },
    });
    const key = generateIntakeKey();
    const source = await prisma.marketingSource.create({
      data: {
        id: newId('source'),
        accountId,
        playbookId: playbook.id,
        name: spec.name ?? 'Test vendor',
        sourceType: 'vendor',
        status: spec.status ?? 'active',
        intakeKey: key,
        rateLimit: spec.rateLimit ?? null,
        redirectUrl: spec.redirectUrl ?? null,
      },
    });
    return {
      accountId,
      sourceId: source.id,
      playbookId: playbook.id,
      key,
      path: `/marketing_sources/${accountId}/${key}`,
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

  return {
    app: buildApp(),
    db,
    pool,
    prisma,
    queues,
    redis,
    prefix,
    logLines,
    makeSource,
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
        await prisma.$disconnect();
        await pool.end();
        await db.drop();
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
    if (method && documentedPath(url) === INTAKE_PATH) {
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

/** A random, valid US number in national notation, and its E.164 form. */
export function randomPhone(): { national: string; e164: string } {
  for (;;) {
    const exchange = 200 + Math.floor(Math.random() * 800);
    const line = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
    const national = `(512) ${exchange}-${line}`;
    const e164 = toE164(national);
    if (e164 && exchange % 100 !== 11 && exchange !== 555) return { national, e164 };
  }
}

/** A complete, valid submission with a fresh phone number; override any field. */
export function validLead(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.com',
    phone: randomPhone().national,
    current_insurance_carrier: 'Acme Mutual',
    current_insurance_coverage: '100/300/100',
    current_residence_address: '123 Main St',
    current_residence_city: 'Austin',
    current_residence_state: 'TX',
    current_residence_zip: '78701',
    date_of_birth: '1985-04-12',
    gender: 'Female',
    marital_status: 'married',
    credit_rating: 'good',
    tcpa_opt_in_token: 'a1b2c3d4-e5f6-4789-abcd-ef0123456789',
    tcpa_opt_in_url: 'https://quotes.example.com/auto?step=consent',
    ...overrides,
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
