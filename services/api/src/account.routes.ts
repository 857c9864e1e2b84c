import { accountUpdateSchema } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { getAccount, rotateAccountKey, updateAccount } from './account.service.js';
import { accountIdOf } from './auth.middleware.js';
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
    summary: 'Issue a new API key; the current one stops working at once',
    tag: 'Account',
    success: {
      status: 200,
      schema: 'ApiKeyRotation',
      description: 'The new key, shown only in this answer.',
    },
    handler: async ({ res }, prisma: PrismaClient) => {
      // The new key is in this answer only: never cache it on the way.
      res.set('cache-control', 'no-store');
      res.json(await rotateAccountKey(prisma, accountIdOf(res)));
    },
  }),
];
