import { INTAKE_MESSAGES, intakeResponses, listQuerySchema } from '@leadhook/contracts';
import { OPERATIONS } from './openapi.operations.js';
import { type Operation, SCHEMAS, type SchemaName } from './openapi.schemas.js';

/**
 * The OpenAPI 3.1 document, assembled from the very schema objects ajv validates
 * with (packages/contracts/src/api): a field added there appears here with no
 * second edit. The operations (openapi.operations.ts) are checked against the
 * Express router by openapi.test.ts, in both directions.
 */

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: SchemaName) => ({ 'application/json': { schema: ref(name) } });
const errorResponse = (description: string) => ({ description, content: json('Error') });

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
};
const IDEMPOTENT_REPLAYED = {
  'Idempotent-Replayed': {
    description:
      'Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function operationObject(op: Operation) {
  const responses: Record<string, unknown> = {
    [op.success.status]: {
      description: op.success.description,
      ...(op.success.schema ? { content: json(op.success.schema) } : {}),
    },
  };
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
    headers: { 'Retry-After': { ...RETRY_AFTER['Retry-After'], required: true } },
  };
  responses[503] = {
    ...errorResponse('service_unavailable: the database cannot be reached; retry.'),
    headers: { 'Retry-After': { ...RETRY_AFTER['Retry-After'], required: true } },
  };
  if (op.path.includes('{id}')) responses[404] = errorResponse('not_found: no such object here.');
  if (op.notFound) responses[404] = errorResponse(op.notFound);
  if (op.conflicts) responses[op.conflicts.status] = errorResponse(op.conflicts.description);
  // Every POST and PATCH reads its body as JSON (app.ts), whether or not it takes one.
  if (op.method === 'post' || op.method === 'patch') {
    responses[400] = errorResponse('malformed_body: the body is not a JSON object.');
    responses[413] = errorResponse('payload_too_large: the body is over 256 KiB.');
    responses[415] = errorResponse(
      'unsupported_media_type: a body that is not application/json (or an unsupported encoding).',
    );
  }
  if (op.body || op.list || op.invalid) {
    responses[422] = errorResponse(
      op.invalid ?? 'validation_failed: every problem is listed in details.',
    );
  }
  const listParameters = Object.entries(listQuerySchema.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: schema.description,
    schema,
  }));
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(op.public ? { security: [] } : {}),
    parameters: [
      ...pathParameters(op.path),
      ...(op.list ? listParameters : []),
      ...Object.entries(op.filters ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        description: schema.description,
        schema,
      })),
    ],
    ...(op.body ? { requestBody: { required: true, content: json(op.body) } } : {}),
    responses,
  };
}

function intakePath(intakeBaseUrl: string) {
  const responses: Record<string, unknown> = {};
  for (const r of intakeResponses()) {
    const key = String(r.status);
    if (key in responses) continue; // the replayed 201 shares the 201 entry
    const cases = intakeResponses()
      .filter((c) => c.status === r.status)
      .map((c) => c.case);
    const headers =
      r.status === 429 || r.status === 503
        ? RETRY_AFTER
        : [200, 201, 422].includes(r.status)
          ? IDEMPOTENT_REPLAYED
          : undefined;
    responses[key] = {
      description: cases.join(' '),
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: ref(r.schema), example: r.example } },
    };
  }
  // redirect_url (docs/intake.md, "Browsers"): a form's answer is a redirect instead of the JSON
  // above (the body, if any, is a courtesy note and carries nothing).
  responses['303'] = {
    description:
      "A form-urlencoded submission to a source with a redirect_url: accepted or duplicate, See Other to redirect_url; rejected, to redirect_url with ?error=<the first error's code>.",
    headers: {
      Location: {
        required: true,
        description: "The source's redirect_url, with ?error=<code> when rejected.",
        schema: { type: 'string', format: 'uri' },
      },
      // A replayed form submission answers its redirect again.
      ...IDEMPOTENT_REPLAYED,
    },
  };
  // Not a case of docs/intake.md's table, but an answer a seller can get.
  responses['500'] = {
    description:
      'An unexpected error on our side (code internal_error). Retry later, with the same Idempotency-Key if you sent one.',
    content: {
      'application/json': {
        schema: ref('IntakeRejected'),
        example: {
          status: 'error',
          errors: [
            { field: null, code: 'internal_error', message: 'Something went wrong on our side.' },
          ],
        },
      },
    },
  };
  return {
    servers: [{ url: intakeBaseUrl, description: 'The intake server (public).' }],
    post: {
      operationId: 'submitLead',
      summary: 'Submit a lead (sellers; the URL is the credential)',
      tags: ['Intake'],
      security: [],
      parameters: [
        ...pathParameters('/{account_id}/{source_key}'),
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: 255 },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: ref('LeadSubmission') },
          'application/x-www-form-urlencoded': { schema: ref('LeadSubmission') },
        },
      },
      responses,
    },
    get: {
      operationId: 'openPostUrl',
      summary: 'The post URL opened in a browser: its Integration Instructions',
      description:
        "Leads are posted, never fetched. A GET that prefers text/html (a browser) gets the source's Integration Instructions as a self-contained HTML page; any other request with another method than POST gets 405 with Allow: POST. A URL that is not a live source answers the one 404, whatever the method.",
      tags: ['Intake'],
      security: [],
      parameters: pathParameters('/{account_id}/{source_key}'),
      responses: {
        '200': {
          description:
            "The source's Integration Instructions, as an HTML page (Accept: text/html).",
          content: { 'text/html': { schema: { type: 'string' } } },
        },
        '404': {
          description: 'Not a live source (the same body as for a POST).',
          content: { 'application/json': { schema: ref('IntakeRejected') } },
        },
        '405': {
          description: 'Any method but POST (code method_not_allowed).',
          headers: {
            Allow: {
              required: true,
              description: 'POST',
              schema: { type: 'string', const: 'POST' },
            },
          },
          content: {
            'application/json': {
              schema: ref('IntakeRejected'),
              example: {
                status: 'rejected',
                errors: [
                  {
                    field: null,
                    code: 'method_not_allowed',
                    message: INTAKE_MESSAGES.method_not_allowed,
                  },
                ],
              },
            },
          },
        },
      },
    },
  };
}

/** The intake path, documented on its own server (path-level `servers`). */
export const INTAKE_PATH = '/marketing_sources/{account_id}/{source_key}';

export function buildOpenApiDocument(options: { intakeBaseUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operationObject(op);
  }
  paths[INTAKE_PATH] = intakePath(options.intakeBaseUrl);
  return {
    openapi: '3.1.0',
    info: {
      title: 'leadhook management API',
      version: '1.0.0',
      description:
        'Marketing sources, playbooks, Integration Instructions, leads, activities, the activity catalog, activity subscriptions and their delivery log. Errors answer {"error":{"code","message","details"}}; lists are cursor-paginated.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/api/v1' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: "The account's API key." },
      },
      schemas: SCHEMAS,
    },
  };
}
