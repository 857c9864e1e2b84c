import { playbookCreateSchema, playbookUpdateSchema } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { Router } from 'express';
import { accountIdOf } from './auth.middleware.js';
import { ApiError, notFound, validationFailed } from './errors.js';
import { pageRequestOf } from './pagination.js';
import {
  createPlaybook,
  deletePlaybook,
  getPlaybook,
  listPlaybooks,
  updatePlaybook,
} from './playbooks.service.js';
import { bodyValidator } from './validation.js';

const validateCreate = bodyValidator(playbookCreateSchema);
const validateUpdate = bodyValidator(playbookUpdateSchema);

/** `/playbooks` (docs/api.md, "Playbooks"). Mounted behind requireApiKey. */
export function playbooksRoutes(prisma: PrismaClient): Router {
  const router = Router();

  router.post('/playbooks', async (req, res) => {
    const body = validateCreate(req.body);
    if (!body.ok) throw validationFailed(body.details);
    res.status(201).json(await createPlaybook(prisma, accountIdOf(res), body.value));
  });

  router.get('/playbooks', async (req, res) => {
    res.json(await listPlaybooks(prisma, accountIdOf(res), pageRequestOf(req)));
  });

  router.get('/playbooks/:id', async (req, res) => {
    const result = await getPlaybook(prisma, accountIdOf(res), req.params.id);
    if (result.kind === 'not_found') throw notFound('playbook');
    res.json(result.playbook);
  });

  router.patch('/playbooks/:id', async (req, res) => {
    const body = validateUpdate(req.body);
    if (!body.ok) throw validationFailed(body.details);
    const result = await updatePlaybook(prisma, accountIdOf(res), req.params.id, body.value);
    if (result.kind === 'not_found') throw notFound('playbook');
    res.json(result.playbook);
  });

  router.delete('/playbooks/:id', async (req, res) => {
    const result = await deletePlaybook(prisma, accountIdOf(res), req.params.id);
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
  });

  return router;
}
