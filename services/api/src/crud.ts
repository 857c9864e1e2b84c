import {
  type JSONSchema,
  listQuerySchema,
  type OpenApiOperation,
  type OpenApiSchemaName,
  type OpenApiTag,
} from '@leadhook/contracts';
import { accountIdOf } from './auth.middleware.js';
import { type PageRequest, pageRequestOf } from './pagination.js';
import { defineRoute, type Route, type RouteCall } from './route.js';

/** A component schema whose list (`${name}List`) is a component too: `Playbook`, … */
type ItemSchemaName = {
  [N in OpenApiSchemaName]: `${N}List` extends OpenApiSchemaName ? N : never;
}[OpenApiSchemaName];

/** The validated body a route with body schema `S` hands its handler. */
type BodyOf<S extends JSONSchema> = RouteCall<string, S, undefined>['body'];

/**
 * A resource's service calls, each for one account: they answer what the route
 * sends back, or throw the ApiError it answers with (notFound for an unknown id).
 */
export interface CrudService<Ctx, C extends JSONSchema, U extends JSONSchema> {
  create(ctx: Ctx, accountId: string, body: BodyOf<C>): Promise<unknown>;
  list(ctx: Ctx, accountId: string, page: PageRequest): Promise<unknown>;
  get(ctx: Ctx, accountId: string, id: string): Promise<unknown>;
  update(ctx: Ctx, accountId: string, id: string, body: BodyOf<U>): Promise<unknown>;
  delete(ctx: Ctx, accountId: string, id: string): Promise<void>;
}

export interface CrudSpec<Ctx, C extends JSONSchema, U extends JSONSchema>
  extends CrudService<Ctx, C, U> {
  /** The collection, `/playbooks`; one item is `/playbooks/{id}`. */
  path: string;
  /** The item's component schema; the list's is `${schema}List`. */
  schema: ItemSchemaName;
  tag: OpenApiTag;
  /** One item in the operations' prose (`marketing source`); an `s` makes the plural. */
  noun: string;
  createBody: C;
  updateBody: U;
  /** The delete's 409, when something can still hold on to the item. */
  deleteConflict?: OpenApiOperation['conflicts'];
  /** Why the list may lag the latest writes: the list route's replicaRead (route.ts). */
  listReplicaRead?: string;
}

/**
 * The five routes of a resource the API creates, lists, reads, updates and
 * deletes the same way (docs/api.md, "Conventions"): POST and GET on the
 * collection, GET, PATCH and DELETE on an item, each documented in the same
 * words, named after the resource.
 */
export function crudRoutes<Ctx, const C extends JSONSchema, const U extends JSONSchema>(
  spec: CrudSpec<Ctx, C, U>,
): Route<Ctx>[] {
  const { path, schema, tag, noun } = spec;
  const item: `${string}/{id}` = `${path}/{id}`;
  return [
    defineRoute({
      method: 'post',
      path,
      operationId: `create${schema}`,
      summary: `Create a ${noun}`,
      tag,
      body: spec.createBody,
      success: { status: 201, schema, description: `The new ${noun}.` },
      handler: async ({ res, body }, ctx: Ctx) => {
        res.status(201).json(await spec.create(ctx, accountIdOf(res), body));
      },
    }),
    defineRoute({
      method: 'get',
      path,
      operationId: `list${schema}s`,
      summary: `List ${noun}s, newest first`,
      tag,
      query: listQuerySchema,
      ...(spec.listReplicaRead === undefined ? {} : { replicaRead: spec.listReplicaRead }),
      success: { status: 200, schema: `${schema}List`, description: `A page of ${noun}s.` },
      handler: async ({ res, query }, ctx: Ctx) => {
        res.json(await spec.list(ctx, accountIdOf(res), pageRequestOf(query)));
      },
    }),
    defineRoute({
      method: 'get',
      path: item,
      operationId: `get${schema}`,
      summary: `Get a ${noun}`,
      tag,
      success: { status: 200, schema, description: `The ${noun}.` },
      handler: async ({ res, params }, ctx: Ctx) => {
        res.json(await spec.get(ctx, accountIdOf(res), params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: item,
      operationId: `update${schema}`,
      summary: `Update a ${noun}`,
      tag,
      body: spec.updateBody,
      success: { status: 200, schema, description: `The updated ${noun}.` },
      handler: async ({ res, params, body }, ctx: Ctx) => {
        res.json(await spec.update(ctx, accountIdOf(res), params.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: item,
      operationId: `delete${schema}`,
      summary: `Delete a ${noun}`,
      tag,
      success: { status: 204, description: `Deleted; the ${noun} now answers 404.` },
      ...(spec.deleteConflict ? { conflicts: spec.deleteConflict } : {}),
      handler: async ({ res, params }, ctx: Ctx) => {
        await spec.delete(ctx, accountIdOf(res), params.id);
        res.status(204).end();
      },
    }),
  ];
}
