import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks a real answer of an HTTP API against its OpenAPI document: the
 * request's operation must be documented, the status must be one of that
 * operation's documented responses, the required headers must be there, and the
 * body must be what the response documents (its schema under ajv's 2020-12
 * dialect, the one `jsonSchemaDialect` names; nothing at all where no content is
 * documented). A service's test harness runs it on every answer, so an answer
 * drifting from its documentation fails the test that produced it.
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
interface OpenApiDocument {
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, object> };
}

/** What is read of a supertest response. */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text?: string;
  body?: unknown;
}

export interface ResponseCheckerOptions {
  /** The document, or a function that makes it (called once, at the first check). */
  document: object | (() => object);
  /**
   * Where the document's paths are served (its `servers` URL), e.g. /api/v1;
   * none: at the server's root.
   */
  basePath?: string;
  /** Documented paths served at the server's root all the same (a path-level `servers`). */
  rootPaths?: readonly string[];
}

export interface ResponseChecker {
  /**
   * The documented path template of a request URL: a path under the base path,
   * or one of the root paths; undefined otherwise.
   */
  documentedPath(url: string): string | undefined;
  /** Every way the response departs from its documentation; [] when it fits. */
  responseProblems(method: string, url: string, res: ObservedResponse): string[];
  /** Throws (failing the test) when the response departs from the document. */
  expectDocumentedResponse(method: string, url: string, res: ObservedResponse): void;
  /** The validator of a component schema, compiled on first use. */
  schemaValidator(name: string): ValidateFunction;
}

// strictSchema: an unknown keyword (a typo in a contract schema) fails; the
// stylistic strict checks (strictRequired, strictTypes) do not judge valid schemas.
function createAjv(): Ajv2020 {
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
  return ajv;
}

interface PathPattern {
  path: string;
  params: number;
  pattern: RegExp;
}

/** Documented paths as patterns; literal segments win over parameters (`/hooks/samples` over `/hooks/{id}`). */
function pathPatterns(paths: string[]): PathPattern[] {
  return paths
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
}

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword}`).join('; ');

export function responseChecker(options: ResponseCheckerOptions): ResponseChecker {
  const { basePath } = options;
  const atRoot = (path: string) =>
    basePath === undefined || (options.rootPaths ?? []).includes(path);
  let loaded:
    | { document: OpenApiDocument; root: PathPattern[]; under: PathPattern[]; ajv: Ajv2020 }
    | undefined;
  const load = () => {
    if (!loaded) {
      const made = typeof options.document === 'function' ? options.document() : options.document;
      const document = JSON.parse(JSON.stringify(made)) as OpenApiDocument;
      const patterns = pathPatterns(Object.keys(document.paths));
      loaded = {
        document,
        root: patterns.filter((p) => atRoot(p.path)),
        under: patterns.filter((p) => !atRoot(p.path)),
        ajv: createAjv(),
      };
    }
    return loaded;
  };
  const validators = new Map<string, ValidateFunction>();

  const schemaValidator = (name: string): ValidateFunction => {
    let validate = validators.get(name);
    if (!validate) {
      const { document, ajv } = load();
      const schema = document.components.schemas[name];
      if (!schema) throw new Error(`no component schema ${name}`);
      validate = ajv.compile(schema);
      validators.set(name, validate);
    }
    return validate;
  };

  const documentedPath = (url: string): string | undefined => {
    const { root, under } = load();
    const pathname = new URL(url, 'http://api.test').pathname;
    if (basePath === undefined || !pathname.startsWith(`${basePath}/`)) {
      return root.find((p) => p.pattern.test(pathname))?.path;
    }
    const rest = pathname.slice(basePath.length);
    return under.find((p) => p.pattern.test(rest))?.path;
  };

  const responseProblems = (method: string, url: string, res: ObservedResponse): string[] => {
    const path = documentedPath(url);
    if (!path) return [`${url} is not a documented path`];
    const operation = load().document.paths[path]?.[method.toLowerCase()];
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
      problems.push(
        `${where} with a body that is not a ${name}: ${describeErrors(validate.errors)}`,
      );
    return problems;
  };

  return {
    documentedPath,
    responseProblems,
    schemaValidator,
    expectDocumentedResponse(method, url, res) {
      const problems = responseProblems(method, url, res);
      if (problems.length > 0) {
        throw new Error(
          `The answer does not match the OpenAPI document:\n- ${problems.join('\n- ')}`,
        );
      }
    },
  };
}

/**
 * The part of a document that documents `paths`: those paths and every component
 * schema they reach, directly or through other schemas. For a service that
 * serves a few of a document's paths and checks its answers against them.
 */
export function documentPart(document: object, paths: readonly string[]): object {
  const whole = JSON.parse(JSON.stringify(document)) as OpenApiDocument & Record<string, unknown>;
  const schemas: Record<string, object> = {};
  const reach = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) reach(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const name =
        key === '$ref' && typeof value === 'string'
          ? value.replace('#/components/schemas/', '')
          : undefined;
      if (name !== undefined && !(name in schemas)) {
        const schema = whole.components.schemas[name];
        if (!schema) throw new Error(`no component schema ${name}`);
        schemas[name] = schema;
        reach(schema);
      } else {
        reach(value);
      }
    }
  };
  const part = Object.fromEntries(paths.map((path) => [path, whole.paths[path]]));
  reach(part);
  return {
    ...whole,
    paths: part,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
