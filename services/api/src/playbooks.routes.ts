import { listQuerySchema, playbookCreateSchema, playbookUpdateSchema } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { accountIdOf } from './auth.middleware.js';
import { ApiError, notFound } from './errors.js';
import { pageRequestOf } from './pagination.js';
import {
  createPlaybook,
  deletePlaybook,
  getPlaybook,
  listPlaybooks,
  updatePlaybook,
} from './playbooks.service.js';
import { defineRoute } from './route.js';

/** `/playbooks` (docs/api.md, "Playbooks"). Mounted behind requireApiKey. */
export const playbooksRoutes = [
  defineRoute({
    method: 'post',
    path: '/playbooks',
    operationId: 'createPlaybook',
    summary: 'Create a playbook',
    tag: 'Playbooks',
    body: playbookCreateSchema,
    success: { status: 201, schema: 'Playbook', description: 'The new playbook.' },
    handler: async ({ res, body }, prisma: PrismaClient) => {
      res.status(201).json(await createPlaybook(prisma, accountIdOf(res), body));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/playbooks',
    operationId: 'listPlaybooks',
    summary: 'List playbooks, newest first',
    tag: 'Playbooks',
    query: listQuerySchema,
    success: { status: 200, schema: 'PlaybookList', description: 'A page of playbooks.' },
    handler: async ({ res, query }, prisma: PrismaClient) => {
      res.json(await listPlaybooks(prisma, accountIdOf(res), pageRequestOf(query)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/playbooks/{id}',
    operationId: 'getPlaybook',
    summary: 'Get a playbook',
    tag: 'Playbooks',
    success: { status: 200, schema: 'Playbook', description: 'The playbook.' },
    handler: async ({ res, params }, prisma: PrismaClient) => {
      const result = await getPlaybook(prisma, accountIdOf(res), params.id);
      if (result.kind === 'not_found') throw notFound('playbook');
      res.json(result.playbook);
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/playbooks/{id}',
    operationId: 'updatePlaybook',
    summary: 'Update a playbook',
    tag: 'Playbooks',
    body: playbookUpdateSchema,
    success: { status: 200, schema: 'Playbook', description: 'The updated playbook.' },
    handler: async ({ res, params, body }, prisma: PrismaClient) => {
      const result = await updatePlaybook(prisma, accountIdOf(res), params.id, body);
      if (result.kind === 'not_found') throw notFound('playbook');
      res.json(result.playbook);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/playbooks/{id}',
    operationId: 'deletePlaybook',
    summary: 'Delete a playbook',
    tag: 'Playbooks',
    success: { status: 204, description: 'Deleted; the playbook now answers 404.' },
    conflicts: {
      status: 409,
      description: 'playbook_in_use: a marketing source still uses the playbook.',
    },
    handler: async ({ res, params }, prisma: PrismaClient) => {
      const result = await deletePlaybook(prisma, accountIdOf(res), params.id);
      switch (result.kind) {
        case 'not_found':
          throw notFound('playbook');
        case 'in_use':
          throw new ApiError(
            409,
            'playbook_in_use',
            'Marketing sources still use this playbook.',
            result.details,
          );
        case 'deleted':
          res.status(204).end();
      }
    },
  }),
];
