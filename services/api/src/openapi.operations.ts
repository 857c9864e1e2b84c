import type { SchemaName } from './openapi.js';

/**
 * The operations the OpenAPI document describes. Written apart from the Express
 * routes on purpose: openapi.test.ts compares this list with the router's real
 * stack, so a route added without its documentation (or the reverse) fails.
 */

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface Operation {
  method: Method;
  /** OpenAPI path under the API server (`/playbooks/{id}`). */
  path: string;
  operationId: string;
  summary: string;
  tag: 'Account' | 'Playbooks' | 'Marketing sources' | 'Meta';
  body?: SchemaName;
  /** Success status and its schema (none for 204). */
  success: { status: 200 | 201 | 204; schema?: SchemaName; description: string };
  list?: true;
  public?: true;
  /** Extra error statuses besides 401 (and 404 for paths with {id}, 400/422 for bodies). */
  conflicts?: { status: 409; description: string };
}

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This document',
    tag: 'Meta',
    success: { status: 200, description: 'The OpenAPI 3.1 document.' },
    public: true,
  },
  {
    method: 'get',
    path: '/account',
    operationId: 'getAccount',
    summary: 'The authenticated account (also a connection test)',
    tag: 'Account',
    success: { status: 200, schema: 'Account', description: 'The account.' },
  },
  {
    method: 'patch',
    path: '/account',
    operationId: 'updateAccount',
    summary: "Update the account's name or duplicate window",
    tag: 'Account',
    body: 'AccountUpdate',
    success: { status: 200, schema: 'Account', description: 'The updated account.' },
  },
  {
    method: 'post',
    path: '/account/api_keys/rotate',
    operationId: 'rotateApiKey',
    summary: 'Issue a new API key; the current one stops working at once',
    tag: 'Account',
    success: {
      status: 200,
      schema: 'ApiKeyRotation',
      description: 'The new key, shown only in this answer.',
    },
  },
  ...crud('/playbooks', 'Playbook', 'Playbooks', 'playbook', {
    status: 409,
    description: 'playbook_in_use: a marketing source still uses the playbook.',
  }),
  ...crud('/marketing_sources', 'MarketingSource', 'Marketing sources', 'marketing source'),
  {
    method: 'post',
    path: '/marketing_sources/{id}/rotate_url',
    operationId: 'rotateMarketingSourceUrl',
    summary: 'Issue a new post_url; the old one stops working at once',
    tag: 'Marketing sources',
    success: {
      status: 200,
      schema: 'MarketingSource',
      description: 'The source with its new post_url.',
    },
  },
  {
    method: 'get',
    path: '/marketing_sources/{id}/integration',
    operationId: 'getIntegrationInstructions',
    summary: "The source's Integration Instructions for its seller",
    tag: 'Marketing sources',
    success: {
      status: 200,
      schema: 'IntegrationInstructions',
      description: 'The exact URL, every field, the responses and ready-to-paste examples.',
    },
  },
];

/** The five operations of a resource collection. */
function crud(
  base: string,
  name: 'Playbook' | 'MarketingSource',
  tag: Operation['tag'],
  noun: string,
  deleteConflict?: Operation['conflicts'],
): Operation[] {
  const item = `${base}/{id}`;
  return [
    {
      method: 'post',
      path: base,
      operationId: `create${name}`,
      summary: `Create a ${noun}`,
      tag,
      body: `${name}Create`,
      success: { status: 201, schema: name, description: `The new ${noun}.` },
    },
    {
      method: 'get',
      path: base,
      operationId: `list${name}s`,
      summary: `List ${noun}s, newest first`,
      tag,
      list: true,
      success: { status: 200, schema: `${name}List`, description: `A page of ${noun}s.` },
    },
    {
      method: 'get',
      path: item,
      operationId: `get${name}`,
      summary: `Get a ${noun}`,
      tag,
      success: { status: 200, schema: name, description: `The ${noun}.` },
    },
    {
      method: 'patch',
      path: item,
      operationId: `update${name}`,
      summary: `Update a ${noun}`,
      tag,
      body: `${name}Update`,
      success: { status: 200, schema: name, description: `The updated ${noun}.` },
    },
    {
      method: 'delete',
      path: item,
      operationId: `delete${name}`,
      summary: `Delete a ${noun}`,
      tag,
      success: { status: 204, description: `Deleted; the ${noun} now answers 404.` },
      ...(deleteConflict ? { conflicts: deleteConflict } : {}),
    },
  ];
}
