import { defineRoute } from './route.js';

/** What the meta routes answer with: the document buildOpenApiDocument made. */
export interface MetaContext {
  document: object;
}

/** The API's description of itself, served without a key (public: mounted before requireApiKey). */
export const metaRoutes = [
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This document',
    tag: 'Meta',
    success: { status: 200, schema: 'OpenApiDocument', description: 'The OpenAPI 3.1 document.' },
    public: true,
    handler: ({ res }, ctx: MetaContext) => {
      res.json(ctx.document);
    },
  }),
];
