import {
  componentName,
  type FromSchema,
  type JSONSchema,
  type OpenApiOperation,
  type OpenApiSchemaName,
  type QuerySchema,
} from '@leadhook/contracts';
import type { Request, Response, Router } from 'express';
import { ApiError, validationFailed } from './errors.js';
import { bodyValidator, queryValidator } from './validation.js';

/**
 * One declaration per route (as svix declares each endpoint with its OpenAPI
 * operation): the path and handler the router mounts, the body and query
 * validation, and the operation the OpenAPI document publishes, all from the
 * same object. A handler gets the body and query already validated, typed from
 * their schemas, and its path parameters typed from the path.
 */

/** `{ id: string }` for `/playbooks/{id}`. */
type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : unknown;

// `undefined extends S` first: a schema not given stays undefined, and FromSchema
// is never asked for the type of every JSON Schema at once (too deep for tsc).
type Of<S> = undefined extends S ? undefined : S extends JSONSchema ? FromSchema<S> : never;

/** What a handler is called with. */
export interface RouteCall<P extends string, B, Q> {
  req: Request;
  res: Response;
  params: PathParams<P>;
  body: Of<B>;
  query: Of<Q>;
}

export interface RouteSpec<
  Ctx,
  P extends string,
  B extends JSONSchema | undefined,
  Q extends QuerySchema | undefined,
> extends Omit<OpenApiOperation, 'path' | 'body' | 'query'> {
  path: P;
  /** The body's schema: one of the document's components (OPENAPI_SCHEMAS), published by reference. */
  body?: B;
  /**
   * A body the handler validates itself, by another validator than the API's
   * (a lead, by intake's): its component is published, nothing is checked here.
   */
  documentedBody?: OpenApiSchemaName;
  query?: Q;
  /**
   * Why this read may be answered a little behind the latest writes: given, the
   * route is served by the read replica (DATABASE_READ_URL) when one is set
   * (docs/operations.md, "Scaling"). Only for reads no caller needs to see its own write in.
   */
  replicaRead?: string;
  /** Answers the request; throws ApiError for the documented failures. */
  handler: (call: RouteCall<P, B, Q>, ctx: Ctx) => Promise<void> | void;
}

/** A declared route: its OpenAPI operation, and what runs when a request matches it. */
export interface Route<Ctx> extends OpenApiOperation {
  /** The spec's replicaRead: why the replica may serve it; absent, the primary does. */
  replicaRead?: string;
  /** Validates the body and query (422 validation_failed), then runs the handler. */
  handle: (req: Request, res: Response, ctx: Ctx) => Promise<void>;
}

export function defineRoute<
  Ctx,
  const P extends string,
  const B extends JSONSchema | undefined = undefined,
  const Q extends QuerySchema | undefined = undefined,
>(spec: RouteSpec<Ctx, P, B, Q>): Route<Ctx> {
  const { handler, body: bodySchema, documentedBody, replicaRead, ...operation } = spec;
  const validateBody = bodySchema === undefined ? undefined : bodyValidator(bodySchema);
  const validateQuery = spec.query ? queryValidator(spec.query as JSONSchema) : undefined;
  return {
    ...operation,
    ...(bodySchema === undefined ? {} : { body: componentName(bodySchema) }),
    ...(documentedBody === undefined ? {} : { body: documentedBody }),
    ...(replicaRead === undefined ? {} : { replicaRead }),
    async handle(req, res, ctx) {
      // A CSV body (a route with csvBody) is text its handler reads and checks row by row.
      const csv = spec.csvBody !== undefined && typeof req.body === 'string';
      // A bare array (a route with arrayBody) is read as the object it stands for.
      const sent =
        spec.arrayBody !== undefined && Array.isArray(req.body)
          ? { [spec.arrayBody]: req.body }
          : req.body;
      const body = csv ? undefined : validateBody?.(sent);
      const query = validateQuery?.(req.query);
      // One 422 lists the problems of both (docs/api.md, "Errors": every problem).
      const details = [body, query].flatMap((v) => (v && !v.ok ? v.details : []));
      if (details.length > 0) throw validationFailed(details);
      // The casts are the schemas' own types (FromSchema), erased by the validators' generic form.
      const call = {
        req,
        res,
        params: req.params,
        body: body?.ok ? body.value : undefined,
        query: query?.ok ? query.value : undefined,
      } as RouteCall<P, B, Q>;
      await handler(call, ctx);
    },
  };
}

/** `/playbooks/{id}` → `/playbooks/:id`: the same path as Express matches it. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Mounts `routes` on `router`, each handler given `ctx`; a route with
 * replicaRead is given `replicaCtx`, the same context on the read replica,
 * when one is set.
 *
 * A replica's 404 is asked of the primary again before it is answered: a
 * resource created a moment ago (a source, a subscription) may not have reached
 * the replica yet, and "not found" for what exists would be wrong where a stale
 * list is merely late.
 */
export function mountRoutes<Ctx>(
  router: Router,
  routes: readonly Route<Ctx>[],
  ctx: Ctx,
  replicaCtx?: Ctx,
): Router {
  for (const route of routes) {
    const replica = route.replicaRead === undefined ? undefined : replicaCtx;
    router[route.method](expressPath(route.path), async (req, res) => {
      if (replica === undefined) return route.handle(req, res, ctx);
      try {
        await route.handle(req, res, replica);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404) || res.headersSent) throw err;
        await route.handle(req, res, ctx);
      }
    });
  }
  return router;
}
