import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../generated/api';

/** Where the management API answers: the same origin as the dashboard. */
export const API_BASE = '/api/v1';

/** A client typed from the API's OpenAPI document (src/generated/api.d.ts). */
export type ApiClient = Client<paths>;

/** The document's schemas by name: `Schema<'Playbook'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/**
 * A client that sends `apiKey` as the bearer key with every request. Paths are the
 * document's, without the /api/v1 prefix: `client.GET('/account')`.
 */
export function createApiClient(apiKey: string): ApiClient {
  const client = createClient<paths>({ baseUrl: API_BASE });
  client.use({
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${apiKey}`);
      return request;
    },
  });
  return client;
}
