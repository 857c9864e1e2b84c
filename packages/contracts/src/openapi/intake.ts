import { INTAKE_MESSAGES } from '../api/index.js';
import { intakeResponses } from '../integration-instructions.js';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  pathParameters,
  RETRY_AFTER_HEADER,
  schemaRef,
} from './operation.js';

/**
 * The public intake endpoint as the OpenAPI document describes it, on the intake
 * server of its own (a path-level `servers`): every answer of docs/intake.md's
 * table, with the example bodies the Integration Instructions show.
 */

/** The intake path, documented on its own server (path-level `servers`). */
export const INTAKE_OPENAPI_PATH = '/marketing_sources/{account_id}/{source_key}';

/** The Idempotency-Key header (docs/intake.md, "Idempotency"). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  description:
    'Any 1 to 255 printable ASCII characters: the same key for this source within 24 h answers the first answer again (Idempotent-Replayed: true), and no second lead is stored.',
  schema: { type: 'string', maxLength: 255 },
} as const;

/**
 * The response objects of docs/intake.md's answer table, by status, with the
 * example bodies the Integration Instructions show: `statuses` only, when given
 * (the api's lead action answers a lead's outcome as intake does).
 */
export function intakeResponseObjects(statuses?: readonly number[]): Record<string, object> {
  const responses: Record<string, object> = {};
  for (const r of intakeResponses()) {
    const key = String(r.status);
    if (key in responses) continue; // the replayed 201 shares the 201 entry
    const cases = intakeResponses()
      .filter((c) => c.status === r.status)
      .map((c) => c.case);
    const headers =
      r.status === 429 || r.status === 503
        ? RETRY_AFTER_HEADER
        : [200, 201, 422].includes(r.status)
          ? IDEMPOTENT_REPLAYED_HEADER
          : undefined;
    responses[key] = {
      description: cases.join(' '),
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: schemaRef(r.schema), example: r.example } },
    };
  }
  if (statuses === undefined) return responses;
  return Object.fromEntries(
    statuses.map((status) => {
      const response = responses[status];
      if (!response) throw new Error(`intake has no ${status} answer`);
      return [status, response];
    }),
  );
}

/** The path item of INTAKE_OPENAPI_PATH, served from `intakeBaseUrl`. */
export function intakePathItem(intakeBaseUrl: string) {
  const responses: Record<string, unknown> = intakeResponseObjects();
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
      ...IDEMPOTENT_REPLAYED_HEADER,
    },
  };
  // Not a case of docs/intake.md's table, but an answer a seller can get.
  responses['500'] = {
    description:
      'An unexpected error on our side (code internal_error). Retry later, with the same Idempotency-Key if you sent one.',
    content: {
      'application/json': {
        schema: schemaRef('IntakeRejected'),
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
          'application/json': { schema: schemaRef('LeadSubmission') },
          'application/x-www-form-urlencoded': { schema: schemaRef('LeadSubmission') },
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
          content: { 'application/json': { schema: schemaRef('IntakeRejected') } },
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
              schema: schemaRef('IntakeRejected'),
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
