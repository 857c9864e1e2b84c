import { accountUpdateSchema, apiKeyCreateSchema, listQuerySchema } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import {
  createAccountKey,
  getAccount,
  listAccountKeys,
  revokeAccountKey,
  rotateAccountKey,
  updateAccount,
} from './account.service.js';
import { accountIdOf, apiKeyIdOf } from './auth.middleware.js';
import { notFound, unauthorized } from './errors.js';
import { pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';

/** `/account` (docs/api.md, "Account"; also the automation platforms' connection test). */
export const accountRoutes = [
  defineRoute({
    method: 'get',
    path: '/account',
    operationId: 'getAccount',
    summary: 'The authenticated account (also a connection test)',
    tag: 'Account',
    success: { status: 200, schema: 'Account', description: 'The account.' },
    handler: async ({ res }, prisma: PrismaClient) => {
      res.json(await getAccount(prisma, accountIdOf(res)));
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/account',
    operationId: 'updateAccount',
    summary: "Update the account's name or duplicate window",
    tag: 'Account',
    body: accountUpdateSchema,
    success: { status: 200, schema: 'Account', description: 'The updated account.' },
    handler: async ({ res, body }, prisma: PrismaClient) => {
      res.json(await updateAccount(prisma, accountIdOf(res), body));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/account/api_keys/rotate',
    operationId: 'rotateApiKey',
    summary: 'Replace the calling API key by a new one; the calling key stops working at once',
    description:
      "Rotates the key this request is authenticated with: the new key has the same name, and the account's other keys keep working.",
    tag: 'Account',
    success: {
      status: 200,
      schema: 'ApiKeyRotation',
      description: 'The new key, shown only in this answer.',
    },
    handler: async ({ res }, prisma: PrismaClient) => {
      // The new key is in this answer only: never cache it on the way.
      res.set('cache-control', 'no-store');
      const rotated = await rotateAccountKey(prisma, accountIdOf(res), apiKeyIdOf(res));
      // Revoked by another request since it authenticated this one.
      if (!rotated) throw unauthorized();
      res.json(rotated);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/account/api_keys',
    operationId: 'createApiKey',
    summary: 'Issue a named API key besides the existing ones',
    description:
      'For one integration each (Zapier, a CRM…), so that each can be revoked alone. The key is shown only in this answer.',
    tag: 'Account',
    body: apiKeyCreateSchema,
    success: {
      status: 201,
      schema: 'ApiKeyWithSecret',
      description: 'The new key (`api_key`, shown only here), its id, name and prefix.',
    },
    conflicts: {
      status: 409,
      description: 'api_key_limit: the account already holds 50 active keys; revoke one first.',
    },
    handler: async ({ res, body }, prisma: PrismaClient) => {
      res.set('cache-control', 'no-store');
      res.status(201).json(await createAccountKey(prisma, accountIdOf(res), body.name));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/account/api_keys',
    operationId: 'listApiKeys',
    summary: "List the account's active API keys, newest first",
    description: 'Never the keys themselves: their id, name, prefix and when they were last used.',
    tag: 'Account',
    query: listQuerySchema,
    success: { status: 200, schema: 'ApiKeyList', description: 'A page of API keys.' },
    handler: async ({ res, query }, prisma: PrismaClient) => {
      res.json(await listAccountKeys(prisma, accountIdOf(res), pageRequestOf(query)));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/account/api_keys/{id}',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key; it fails from its next request',
    description:
      'Revoking the key that makes this request is allowed: the answer is still 204, and the key fails from the next request. A revoked key answers 404 here.',
    tag: 'Account',
    success: { status: 204, description: 'Revoked.' },
    handler: async ({ res, params }, prisma: PrismaClient) => {
      if (!(await revokeAccountKey(prisma, accountIdOf(res), params.id))) {
        throw notFound('API key');
      }
      res.status(204).end();
    },
  }),
];
