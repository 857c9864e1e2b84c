import {
  activityCreateSchema,
  activityReportSchema,
  errorEnvelopeSchema,
  leadDetailSchema,
  leadSubmissionSchema,
  marketingSourceCreateSchema,
  playbookCreateSchema,
  playbookSchema,
  subscriptionCreateSchema,
  subscriptionSchema,
  subscriptionWithSecretSchema,
} from '@leadhook/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { API_PREFIX } from './app.js';
import { buildOpenApiDocument, INTAKE_PATH } from './openapi.js';
import { API_ROUTES } from './routes.js';
import { type Harness, startHarness } from './testing/harness.js';
import { schemaValidator } from './testing/openapi-responses.js';

let h: Harness;
let doc: {
  openapi: string;
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type PathItem = { servers?: { url: string }[] } & Partial<
  Record<(typeof METHODS)[number], OperationDoc>
>;
function operationsOf(item: PathItem): [string, OperationDoc][] {
  return METHODS.flatMap((m) => {
    const op = item[m];
    return op ? [[m, op] satisfies [string, OperationDoc]] : [];
  });
}
interface OperationDoc {
  security?: unknown[];
  parameters: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
}

beforeAll(async () => {
  h = await startHarness();
  const res = await h.anonymous.get(`${API_PREFIX}/openapi.json`);
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => {
  await h.close();
});

function documentedRoutes(): string[] {
  const routes: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path === INTAKE_PATH) continue; // served by the intake process
    expect(Object.keys(item).every((k) => k === 'servers' || METHODS.some((m) => m === k))).toBe(
      true,
    );
    for (const [method] of operationsOf(item)) routes.push(`${method.toUpperCase()} ${path}`);
  }
  return routes;
}

/** What `METHOD /path` answers (ids that name nothing), on a fresh account's key. */
async function answer(method: string, path: string) {
  const { api_key } = await h.newAccount();
  const url = `${API_PREFIX}${path.replace(/\{\w+\}/g, 'xx_00000000000000000000000000')}`;
  const res = await request(h.app)
    [method.toLowerCase() as (typeof METHODS)[number]](url)
    .set('authorization', `Bearer ${api_key}`)
    .send({});
  return { status: res.status, message: res.body?.error?.message };
}

/** The operations answered without a key (meta.routes.ts). */
const PUBLIC_PATHS = ['/openapi.json', '/docs', '/docs/assets/{file}'];

/** The answer of a request no route matched (errors.ts routeNotFound). */
const NO_ROUTE = { status: 404, message: 'No such route.' };

describe('OpenAPI coverage', () => {
  it('documents every declared route, and only those', () => {
    const declared = API_ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort();
    expect(declared.length).toBeGreaterThanOrEqual(16);
    expect(declared).toContain('DELETE /playbooks/{id}');
    expect(declared).toContain('GET /marketing_sources/{id}/integration');
    expect(declared).toEqual(
      expect.arrayContaining([
        'GET /activity_catalog',
        'GET /leads',
        'GET /leads/{id}',
        'POST /leads/{id}/activities',
        'POST /playbooks/{id}/subscriptions',
        'GET /subscriptions/{id}/deliveries',
        'POST /deliveries/{id}/redeliver',
        'POST /subscriptions/{id}/recover',
      ]),
    );
    expect(documentedRoutes().sort()).toEqual(declared);
  });

  it('mounts every declared route: none answers as a path no route matches', async () => {
    for (const route of API_ROUTES) {
      const where = `${route.method.toUpperCase()} ${route.path}`;
      const got = await answer(route.method, route.path);
      expect([where, got]).not.toEqual([where, NO_ROUTE]);
      // A 401 would be the key check's, before any route is reached.
      expect([where, got.status]).not.toEqual([where, 401]);
    }
  });

  it('a path no route matches answers as such (the check can fail)', async () => {
    expect(await answer('get', '/ghosts/{id}')).toEqual(NO_ROUTE);
    expect(await answer('delete', '/activity_catalog')).toEqual(NO_ROUTE);
  });
});

describe('the OpenAPI document', () => {
  it('is valid against the official OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the OpenAPI schema check refuses a broken document (the check can fail)', async () => {
    const broken = structuredClone(doc);
    // A response object must have a description; a path must start with a slash.
    const account = broken.paths['/account']?.get?.responses['200'] as Record<string, unknown>;
    delete account.description;
    broken.paths.account = {};
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('publishes only component schemas that are valid JSON Schema 2020-12 (the dialect it names)', () => {
    expect(Object.keys(doc.components.schemas).length).toBeGreaterThan(30);
    for (const name of Object.keys(doc.components.schemas)) {
      expect([name, typeof schemaValidator(name)]).toEqual([name, 'function']);
    }
  });

  it('is OpenAPI 3.1 with a bearer scheme, served without a key', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(doc.paths['/openapi.json']?.get?.security).toEqual([]);
    expect(doc.paths['/docs']?.get?.security).toEqual([]);
  });

  it('publishes the very schemas that validate', () => {
    const { schemas } = doc.components;
    expect(schemas.PlaybookCreate).toEqual(JSON.parse(JSON.stringify(playbookCreateSchema)));
    expect(schemas.Playbook).toEqual(JSON.parse(JSON.stringify(playbookSchema)));
    expect(schemas.MarketingSourceCreate).toEqual(
      JSON.parse(JSON.stringify(marketingSourceCreateSchema)),
    );
    expect(schemas.Error).toEqual(JSON.parse(JSON.stringify(errorEnvelopeSchema)));
    const { $id: _id, ...lead } = leadSubmissionSchema;
    expect(schemas.LeadSubmission).toEqual(JSON.parse(JSON.stringify(lead)));
  });

  it('gives each operation its body, parameters and error responses', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      if (path === INTAKE_PATH) continue;
      for (const [method, op] of operationsOf(item)) {
        const where = `${method} ${path}`;
        // The public operations (the document, its page and the page's files) ask no key: no 401.
        const keyed = op.security === undefined;
        expect([where, keyed]).toEqual([where, !PUBLIC_PATHS.includes(path)]);
        if (keyed) {
          expect([where, op.responses['401']?.content?.['application/json']?.schema]).toEqual([
            where,
            { $ref: '#/components/schemas/Error' },
          ]);
        }
        const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        expect([where, op.parameters.filter((p) => p.in === 'path').map((p) => p.name)]).toEqual([
          where,
          pathParams,
        ]);
        if (pathParams.length > 0) {
          expect([where, op.responses['404'] !== undefined]).toEqual([where, true]);
        }
        if (method === 'post' && path === '/playbooks') {
          expect(op.requestBody?.content['application/json']?.schema).toEqual({
            $ref: '#/components/schemas/PlaybookCreate',
          });
          expect(op.responses['422']).toBeDefined();
        }
      }
    }
    expect(doc.paths['/playbooks/{id}']?.delete?.responses['409']).toBeDefined();
    const list = doc.paths['/playbooks']?.get?.parameters.map((p) => p.name);
    expect(list).toEqual(['limit', 'cursor']);
    const leads = doc.paths['/leads']?.get?.parameters.map((p) => `${p.in}:${p.name}`);
    expect(leads).toEqual([
      'query:limit',
      'query:cursor',
      'query:source_id',
      'query:outcome',
      'query:from',
      'query:to',
      'query:phone',
      'query:email',
      'query:external_id',
    ]);
  });

  it('documents the activity report: its body, the 201 shape with caused, 409 and 422', () => {
    const post = doc.paths['/leads/{id}/activities']?.post;
    expect(post?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ActivityCreate',
    });
    expect(post?.responses['201']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ActivityReport',
    });
    expect(Object.keys(post?.responses ?? {}).sort()).toEqual(
      ['201', '400', '401', '404', '409', '413', '415', '422', '429', '503'].sort(),
    );
    const { schemas } = doc.components;
    expect(schemas.ActivityCreate).toEqual(JSON.parse(JSON.stringify(activityCreateSchema)));
    expect(schemas.ActivityReport).toEqual(JSON.parse(JSON.stringify(activityReportSchema)));
    expect(schemas.LeadDetail).toEqual(JSON.parse(JSON.stringify(leadDetailSchema)));
    expect(
      doc.paths['/leads/{id}']?.get?.responses['200']?.content?.['application/json']?.schema,
    ).toEqual({ $ref: '#/components/schemas/LeadDetail' });
    expect(
      doc.paths['/activity_catalog']?.get?.responses['200']?.content?.['application/json']?.schema,
    ).toEqual({ $ref: '#/components/schemas/ActivityCatalog' });
  });

  it('documents subscriptions and deliveries: secret only where it is answered, the status and period filters', () => {
    const ok = (path: string, method: 'get' | 'post' | 'patch') =>
      doc.paths[path]?.[method]?.responses['200']?.content?.['application/json']?.schema;
    const created = (path: string) =>
      doc.paths[path]?.post?.responses['201']?.content?.['application/json']?.schema;
    const withSecret = { $ref: '#/components/schemas/SubscriptionWithSecret' };
    const withoutSecret = { $ref: '#/components/schemas/Subscription' };
    expect(created('/playbooks/{id}/subscriptions')).toEqual(withSecret);
    expect(created('/subscriptions')).toEqual(withSecret);
    expect(ok('/subscriptions/{id}/rotate_secret', 'post')).toEqual(withSecret);
    expect(ok('/subscriptions/{id}', 'get')).toEqual(withoutSecret);
    expect(ok('/subscriptions/{id}', 'patch')).toEqual(withoutSecret);
    expect(ok('/deliveries/{id}/redeliver', 'post')).toEqual({
      $ref: '#/components/schemas/Delivery',
    });
    expect(ok('/subscriptions/{id}/test', 'post')).toEqual({
      $ref: '#/components/schemas/SubscriptionTestResult',
    });
    const { schemas } = doc.components;
    expect(schemas.Subscription).toEqual(JSON.parse(JSON.stringify(subscriptionSchema)));
    expect(schemas.SubscriptionCreate).toEqual(
      JSON.parse(JSON.stringify(subscriptionCreateSchema)),
    );
    expect(schemas.SubscriptionWithSecret).toEqual(
      JSON.parse(JSON.stringify(subscriptionWithSecretSchema)),
    );
    expect(JSON.stringify(schemas.Subscription)).not.toContain('"secret"');
    const log = doc.paths['/subscriptions/{id}/deliveries']?.get?.parameters.map(
      (p) => `${p.in}:${p.name}`,
    );
    expect(log).toEqual([
      'path:id',
      'query:limit',
      'query:cursor',
      'query:status',
      'query:from',
      'query:to',
    ]);
    expect(
      doc.paths['/subscriptions/{id}/recover']?.post?.requestBody?.content['application/json']
        ?.schema,
    ).toEqual({
      $ref: '#/components/schemas/SubscriptionRecover',
    });
  });

  it('documents the public intake endpoint on its own server with the lead schema', () => {
    const intake = doc.paths[INTAKE_PATH];
    expect(intake?.servers).toEqual([
      expect.objectContaining({ url: 'https://leads.example.test' }),
    ]);
    const post = intake?.post;
    expect(post?.security).toEqual([]);
    expect(Object.keys(post?.requestBody?.content ?? {}).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(post?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/LeadSubmission',
    });
    expect(Object.keys(post?.responses ?? {}).sort()).toEqual(
      ['200', '201', '303', '400', '404', '409', '413', '415', '422', '429', '500', '503'].sort(),
    );
  });

  it('has no dangling $ref', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)];
    expect(refs.length).toBeGreaterThan(20);
    for (const [, name] of refs) expect(doc.components.schemas).toHaveProperty([name ?? '']);
  });
});

/** A value deep inside the document, or undefined. */
function dig(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>(
    (v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
    value,
  );
}

const headerNames = (value: unknown) => Object.keys((dig(value, 'headers') as object) ?? {});

describe('documented response headers', () => {
  it('declares WWW-Authenticate on 401, Retry-After on 503/429 and Idempotent-Replayed on intake answers', () => {
    const doc: unknown = buildOpenApiDocument({ intakeBaseUrl: 'http://localhost:3000' });
    const account = dig(doc, 'paths', '/account', 'get', 'responses');
    expect(headerNames(dig(account, '401'))).toEqual(['WWW-Authenticate']);
    expect(headerNames(dig(account, '503'))).toEqual(['Retry-After']);
    expect(headerNames(dig(account, '429'))).toEqual(['Retry-After']);
    const intake = dig(doc, 'paths', INTAKE_PATH, 'post', 'responses');
    expect(headerNames(dig(intake, '429'))).toEqual(['Retry-After']);
    expect(headerNames(dig(intake, '503'))).toEqual(['Retry-After']);
    expect(headerNames(dig(intake, '201'))).toEqual(['Idempotent-Replayed']);
  });
});
