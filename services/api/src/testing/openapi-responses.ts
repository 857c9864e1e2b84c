import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { API_PREFIX } from '../app.js';
import { buildOpenApiDocument, INTAKE_PATH } from '../openapi.js';

/**
 * Checks a real answer of the management API against the served OpenAPI document:
 * the request's operation must be documented, the status must be one of that
 * operation's documented responses, the required headers must be there, and the
 * body must be what the response documents (its schema under ajv's 2020-12
 * dialect, the one `jsonSchemaDialect` names; nothing at all where no content is
 * documented). The harness runs it on every response of every api test, so an
 * answer drifting from its documentation fails the test that produced it; the
 * intake's harness runs it on every answer of the intake endpoint (documented on
 * its own server, so its URLs have no /api/v1 prefix).
 */

interface HeaderDoc {
  required?: boolean;
}
interface ResponseDoc {
  headers?: Record<string, HeaderDoc>;
  content?: Record<string, { schema: { $ref?: string } }>;
}
interface OperationDoc {
  operationId: string;
  responses: Record<string, ResponseDoc>;
}
type PathItem = Partial<Record<string, OperationDoc>>;

/** What is read of a supertest response. */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text?: string;
  body?: unknown;
}

const document = JSON.parse(
  JSON.stringify(buildOpenApiDocument({ intakeBaseUrl: 'https://intake.example.test' })),
) as { paths: Record<string, PathItem>; components: { schemas: Record<string, object> } };

/** One validator per component schema, compiled on first use. */
// strictSchema: an unknown keyword (a typo in a contract schema) fails; the
// stylistic strict checks (strictRequired, strictTypes) do not judge valid schemas.
const ajv = new Ajv2020({
  allErrors: true,
  strictSchema: true,
  strictTypes: false,
  strictTuples: false,
  allowUnionTypes: true,
});
addFormats.default(ajv);
// The playbook template check is a keyword of the API's own validator; here it annotates.
ajv.addKeyword({ keyword: 'x-lead-template', schemaType: 'boolean' });
// The lead submission's own formats (packages/contracts lead.schema.ts), checked by
// the intake's validator; an OpenAPI format is an annotation, so any value passes here.
for (const format of ['phone', 'us-state', 'us-zip', 'past-date', 'http-url']) {
  ajv.addFormat(format, true);
}
const validators = new Map<string, ValidateFunction>();

export function schemaValidator(name: string): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    const schema = document.components.schemas[name];
    if (!schema) throw new Error(`no component schema ${name}`);
    validate = ajv.compile(schema);
    validators.set(name, validate);
  }
  return validate;
}

/** Documented paths as patterns; literal segments win over parameters (`/hooks/samples` over `/hooks/{id}`). */
const PATHS = Object.keys(document.paths)
  .map((path) => ({
    path,
    params: (path.match(/\{\w+\}/g) ?? []).length,
    pattern: new RegExp(
      `^${path
        .split(/(\{\w+\})/)
        .map((part) =>
          /^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
    ),
  }))
  .sort((a, b) => a.params - b.params);

const INTAKE = PATHS.find((p) => p.path === INTAKE_PATH);
const API_PATHS = PATHS.filter((p) => p !== INTAKE);

/**
 * The documented path template of a request URL: an operation under /api/v1, or
 * the intake endpoint at its server's root; undefined otherwise.
 */
export function documentedPath(url: string): string | undefined {
  const pathname = new URL(url, 'http://api.test').pathname;
  if (!pathname.startsWith(`${API_PREFIX}/`)) {
    return INTAKE?.pattern.test(pathname) ? INTAKE.path : undefined;
  }
  const rest = pathname.slice(API_PREFIX.length);
  return API_PATHS.find((p) => p.pattern.test(rest))?.path;
}

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword}`).join('; ');

/** Every way the response departs from its documentation; [] when it fits. */
export function responseProblems(method: string, url: string, res: ObservedResponse): string[] {
  const path = documentedPath(url);
  if (!path) return [`${url} is not a documented path`];
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) return [`${method.toUpperCase()} ${path} is not a documented operation`];
  const where = `${method.toUpperCase()} ${path} (${operation.operationId}) answered ${res.status}`;
  const response = operation.responses[String(res.status)] ?? operation.responses.default;
  if (!response) {
    const documented = Object.keys(operation.responses).join(', ');
    return [`${where}, not a documented status (documented: ${documented})`];
  }
  const problems: string[] = [];
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (header.required && res.headers[name.toLowerCase()] === undefined) {
      problems.push(`${where} without its required header ${name}`);
    }
  }
  const content = Object.entries(response.content ?? {});
  if (content.length === 0) {
    // A redirect may carry express's courtesy note ("See Other. Redirecting to …").
    const redirect = res.status >= 300 && res.status < 400;
    if (res.text && !redirect) problems.push(`${where} with a body, but documents none`);
    return problems;
  }
  const contentType = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim();
  const media = content.find(([type]) => type === contentType);
  if (!media) {
    problems.push(
      `${where} as ${contentType || 'no content type'}, not ${content.map(([t]) => t).join(' or ')}`,
    );
    return problems;
  }
  // A page (the intake's text/html Integration Instructions) has no component schema.
  if (media[1].schema.$ref === undefined) return problems;
  const name = media[1].schema.$ref.replace('#/components/schemas/', '');
  const validate = schemaValidator(name);
  if (!validate(res.body))
    problems.push(`${where} with a body that is not a ${name}: ${describeErrors(validate.errors)}`);
  return problems;
}

/** Throws (failing the test) when the response departs from the document. */
export function expectDocumentedResponse(method: string, url: string, res: ObservedResponse): void {
  const problems = responseProblems(method, url, res);
  if (problems.length > 0) {
    throw new Error(`The answer does not match the OpenAPI document:\n- ${problems.join('\n- ')}`);
  }
}
