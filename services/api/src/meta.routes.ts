import {
  API_REFERENCE_ASSET_CACHE,
  API_REFERENCE_CSP,
  API_REFERENCE_MEDIA,
  type ApiReference,
} from './api-reference.js';
import { notFound } from './errors.js';
import { defineRoute } from './route.js';

/** What the meta routes answer with: the document buildOpenApiDocument made, and its page. */
export interface MetaContext {
  document: object;
  reference: ApiReference;
}

/**
 * The API's description of itself, served without a key (public: mounted before
 * requireApiKey): the document, and the page that renders it with the files it
 * loads (docs/api.md, "API reference"), operations of the document as it is.
 */
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
  defineRoute({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    summary: 'This document as a page',
    description:
      'The API reference: this document rendered for reading in a browser, by a renderer the API serves itself (no request leaves its origin).',
    tag: 'Meta',
    success: { status: 200, media: ['text/html'], description: 'The HTML page.' },
    public: true,
    handler: ({ res }, ctx: MetaContext) => {
      res.setHeader('content-security-policy', API_REFERENCE_CSP);
      res.type('html').send(ctx.reference.page);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/docs/assets/{file}',
    operationId: 'getApiReferenceAsset',
    summary: 'A file the reference page loads',
    tag: 'Meta',
    success: {
      status: 200,
      media: API_REFERENCE_MEDIA,
      description: 'The file (a script, a stylesheet or an image).',
    },
    notFound: 'not_found: no such file.',
    public: true,
    handler: ({ res, params }, ctx: MetaContext) => {
      const asset = ctx.reference.assets.get(params.file);
      if (!asset) throw notFound('file');
      res.setHeader('content-security-policy', API_REFERENCE_CSP);
      res.setHeader('cache-control', API_REFERENCE_ASSET_CACHE);
      res.type(asset.contentType).send(asset.body);
    },
  }),
];
