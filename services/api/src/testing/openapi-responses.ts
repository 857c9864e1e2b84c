import { responseChecker } from '@leadhook/testkit';
import { API_PREFIX } from '../app.js';
import { buildOpenApiDocument, INTAKE_PATH } from '../openapi.js';

/**
 * The served OpenAPI document's response check (@leadhook/testkit): the harness
 * runs it on every response of every api test. The intake endpoint is documented
 * on its own server, so its URLs have no /api/v1 prefix.
 */
export type { ObservedResponse } from '@leadhook/testkit';

export const { documentedPath, expectDocumentedResponse, responseProblems, schemaValidator } =
  responseChecker({
    document: () => buildOpenApiDocument({ intakeBaseUrl: 'https://intake.example.test' }),
    basePath: API_PREFIX,
    rootPaths: [INTAKE_PATH],
  });
