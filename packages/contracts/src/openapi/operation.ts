import { OPENAPI_SCHEMAS, type OpenApiSchemaName } from './schemas.js';

/**
 * One operation of an OpenAPI document and the objects it becomes: its
 * parameters, request body and responses, with the answers every operation of
 * the management API can give (401, 429, 503, and 400/413/415 for a body).
 * What each operation says is written beside its handler, where the API
 * declares the route (services/api defineRoute).
 */

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

export type OpenApiTag =
  | 'Account'
  | 'Playbooks'
  | 'Marketing sources'
  | 'Leads'
  | 'Activities'
  | 'Subscriptions'
  | 'Deliveries'
  | 'Do-not-contact'
  | 'Hooks'
  | 'Meta';

/** A query schema: an object whose properties are the query parameters, in order. */
export interface QuerySchema {
  readonly type: 'object';
  /** The parameters that must be given (the rest are optional). */
  readonly required?: readonly string[];
  readonly properties: { readonly [name: string]: { readonly description?: string } };
}

export interface OpenApiOperation {
  method: HttpMethod;
  /** OpenAPI path under the API server (`/playbooks/{id}`). */
  path: string;
  operationId: string;
  summary: string;
  /** Longer prose, when the summary is not enough (e.g. a response shape's rules). */
  description?: string;
  tag: OpenApiTag;
  /** The request body's component schema. */
  body?: OpenApiSchemaName;
  /** The body may also come as `text/csv`: what its rows are. */
  csvBody?: string;
  /**
   * The JSON body may also be a bare array: the value of this property of the
   * body's object (`["+15125550100"]` for `{"phones": ["+15125550100"]}`).
   */
  arrayBody?: string;
  /** The body size limit, when not the API's 256 KiB. */
  bodyLimit?: string;
  /** The query string's schema: each property is an optional query parameter. */
  query?: QuerySchema;
  /**
   * Success status and its schema (none for 204); or, for an answer that is not
   * JSON (an HTML page, the files it loads), its media types instead.
   */
  success: {
    status: 200 | 201 | 204;
    schema?: OpenApiSchemaName;
    media?: readonly string[];
    description: string;
  };
  /** A second success answer (a create that finds the object already there answers 200). */
  alsoSuccess?: { status: 200; schema: OpenApiSchemaName; description: string };
  /** Answered without an API key. */
  public?: true;
  /** Extra error statuses besides 401 (and 404 for paths with {id}, 400/422 for bodies). */
  conflicts?: { status: 409; description: string };
  /** The 404 description of an operation whose path has no {id} (a filter naming an object). */
  notFound?: string;
  /**
   * The 422 description, when the operation has checks beyond its body and query
   * schemas; it also documents a 422 for an operation with neither.
   */
  invalid?: string;
  /** Request headers the operation reads (an Idempotency-Key). */
  headers?: readonly { name: string; description: string; schema: object }[];
  /**
   * Response objects that replace the generated ones of their statuses: answers
   * whose body is not the Error envelope (a lead's, as intake answers it).
   */
  responses?: Readonly<Record<string, object>>;
}

export const schemaRef = (name: OpenApiSchemaName) => {
  if (!(name in OPENAPI_SCHEMAS)) throw new Error(`no component schema ${name}`);
  return { $ref: `#/components/schemas/${name}` };
};
const json = (name: OpenApiSchemaName) => ({ 'application/json': { schema: schemaRef(name) } });
const errorResponse = (description: string) => ({ description, content: json('Error') });
/** Content that is not JSON: a string of bytes of each media type. */
const media = (types: readonly string[]) =>
  Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' } }]));

export const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
};
export const IDEMPOTENT_REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description:
      'Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The `{name}` parameters of an OpenAPI path, in order. */
export function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function queryParameters(query: QuerySchema) {
  return Object.entries(query.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query.required?.includes(name) ?? false,
    description: schema.description,
    schema,
  }));
}

/** The OpenAPI operation object of one operation. */
export function operationObject(op: OpenApiOperation) {
  const responses: Record<string, unknown> = {
    [op.success.status]: {
      description: op.success.description,
      ...(op.success.schema ? { content: json(op.success.schema) } : {}),
      ...(op.success.media ? { content: media(op.success.media) } : {}),
    },
  };
  if (op.alsoSuccess) {
    responses[op.alsoSuccess.status] = {
      description: op.alsoSuccess.description,
      content: json(op.alsoSuccess.schema),
    };
  }
  if (!op.public)
    responses[401] = {
      ...errorResponse('unauthorized: missing, wrong or revoked API key.'),
      headers: {
        'WWW-Authenticate': { description: 'Bearer', required: true, schema: { type: 'string' } },
      },
    };
  responses[429] = {
    ...errorResponse(
      'rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds.',
    ),
    headers: { 'Retry-After': { ...RETRY_AFTER_HEADER['Retry-After'], required: true } },
  };
  responses[503] = {
    ...errorResponse('service_unavailable: the database cannot be reached; retry.'),
    headers: { 'Retry-After': { ...RETRY_AFTER_HEADER['Retry-After'], required: true } },
  };
  if (op.path.includes('{id}')) responses[404] = errorResponse('not_found: no such object here.');
  if (op.notFound) responses[404] = errorResponse(op.notFound);
  if (op.conflicts) responses[op.conflicts.status] = errorResponse(op.conflicts.description);
  // Every POST and PATCH reads its body as JSON, whether or not it takes one.
  if (op.method === 'post' || op.method === 'patch') {
    responses[400] = errorResponse('malformed_body: the body is not a JSON object.');
    responses[413] = errorResponse(
      `payload_too_large: the body is over ${op.bodyLimit ?? '256 KiB'}.`,
    );
    responses[415] = errorResponse(
      `unsupported_media_type: a body that is not application/json${op.csvBody ? ' or text/csv' : ''} (or an unsupported encoding).`,
    );
  }
  if (op.body || op.query || op.invalid) {
    responses[422] = errorResponse(
      op.invalid ?? 'validation_failed: every problem is listed in details.',
    );
  }
  if (op.responses) Object.assign(responses, op.responses);
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(op.public ? { security: [] } : {}),
    parameters: [
      ...pathParameters(op.path),
      ...(op.query ? queryParameters(op.query) : []),
      ...(op.headers ?? []).map((header) => ({ ...header, in: 'header', required: false })),
    ],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              ...(op.arrayBody
                ? {
                    'application/json': {
                      schema: {
                        oneOf: [
                          schemaRef(op.body),
                          { $ref: `${schemaRef(op.body).$ref}/properties/${op.arrayBody}` },
                        ],
                      },
                    },
                  }
                : json(op.body)),
              ...(op.csvBody
                ? { 'text/csv': { schema: { type: 'string', description: op.csvBody } } }
                : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

/** The `paths` object of `operations`, each path in the order it first appears. */
export function openApiPaths(operations: readonly OpenApiOperation[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const item = paths[op.path] ?? {};
    if (op.method in item) throw new Error(`${op.method} ${op.path} is declared twice`);
    item[op.method] = operationObject(op);
    paths[op.path] = item;
  }
  return paths;
}
