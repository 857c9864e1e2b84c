import { accountUpdateSchema } from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { Router } from 'express';
import { getAccount, rotateAccountKey, updateAccount } from './account.service.js';
import { accountIdOf } from './auth.middleware.js';
import { validationFailed } from './errors.js';
import { bodyValidator } from './validation.js';

const validateUpdate = bodyValidator(accountUpdateSchema);

/** `/account` (docs/api.md, "Account"; also the automation platforms' connection test). */
export function accountRoutes(prisma: PrismaClient): Router {
  const router = Router();

  router.get('/account', async (_req, res) => {
    res.json(await getAccount(prisma, accountIdOf(res)));
  });

  router.patch('/account', async (req, res) => {
    const body = validateUpdate(req.body);
    if (!body.ok) throw validationFailed(body.details);
    res.json(await updateAccount(prisma, accountIdOf(res), body.value));
  });

  router.post('/account/api_keys/rotate', async (_req, res) => {
    // The new key is in this answer only: never cache it on the way.
    res.set('cache-control', 'no-store');
    res.json(await rotateAccountKey(prisma, accountIdOf(res)));
  });

  return router;
}
