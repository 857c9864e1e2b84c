import {
  INTAKE_OPENAPI_PATH,
  intakePathItem,
  OPENAPI_SCHEMAS,
  openApiPaths,
} from '@leadhook/contracts';
import { API_ROUTES } from './routes.js';

/**
 * The OpenAPI 3.1 document: its operations are the declared routes (routes.ts),
 * each with the prose written beside its handler; its components are the very
 * schema objects ajv validates with (packages/contracts), so a field added there
 * appears here with no second edit. The intake endpoint is documented on its own
 * server.
 */

/** The intake path, documented on its own server (path-level `servers`). */
export const INTAKE_PATH = INTAKE_OPENAPI_PATH;

export function buildOpenApiDocument(options: { intakeBaseUrl: string }) {
  const paths: Record<string, unknown> = openApiPaths(API_ROUTES);
  paths[INTAKE_PATH] = intakePathItem(options.intakeBaseUrl);
  return {
    openapi: '3.1.0',
    info: {
      title: 'leadhook management API',
      version: '1.0.0',
      description:
        'Marketing sources, playbooks, Integration Instructions, leads, activities, the activity catalog, activity subscriptions and their delivery log, the do-not-contact list. Errors answer {"error":{"code","message","details"}}; lists are cursor-paginated.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/api/v1' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: "The account's API key." },
      },
      schemas: OPENAPI_SCHEMAS,
    },
  };
}
