import { deliveryListQuerySchema, subscriptionRecoverSchema } from '@leadhook/contracts';
import { Router } from 'express';
import { accountIdOf } from './auth.middleware.js';
import {
  type DeliveryActionDeps,
  getDelivery,
  listDeliveries,
  recoverDeliveries,
  redeliver,
} from './deliveries.service.js';
import { notFound, validationFailed } from './errors.js';
import { bodyValidator, queryValidator } from './validation.js';

const validateListQuery = queryValidator(deliveryListQuerySchema);
const validateRecover = bodyValidator(subscriptionRecoverSchema);

/** The delivery log, redeliver and recover (docs/api.md, "Deliveries"). Mounted behind requireApiKey. */
export function deliveriesRoutes(deps: DeliveryActionDeps): Router {
  const { prisma } = deps;
  const router = Router();

  router.get('/subscriptions/:id/deliveries', async (req, res) => {
    const query = validateListQuery(req.query);
    if (!query.ok) throw validationFailed(query.details);
    const { limit, cursor, status } = query.value;
    const result = await listDeliveries(
      prisma,
      accountIdOf(res),
      req.params.id,
      { limit: limit ?? 20, cursor },
      { status },
    );
    if (result.kind === 'not_found') throw notFound('subscription');
    res.json(result.page);
  });

  router.get('/deliveries/:id', async (req, res) => {
    const result = await getDelivery(prisma, accountIdOf(res), req.params.id);
    if (result.kind === 'not_found') throw notFound('delivery');
    res.json(result.delivery);
  });

  router.post('/deliveries/:id/redeliver', async (req, res) => {
    const result = await redeliver(deps, accountIdOf(res), req.params.id);
    if (result.kind === 'not_found') throw notFound('delivery');
    res.json(result.delivery);
  });

  router.post('/subscriptions/:id/recover', async (req, res) => {
    const body = validateRecover(req.body);
    if (!body.ok) throw validationFailed(body.details);
    const since = new Date(body.value.since);
    const result = await recoverDeliveries(deps, accountIdOf(res), req.params.id, since);
    if (result.kind === 'not_found') throw notFound('subscription');
    res.json({ recovered: result.recovered });
  });

  return router;
}
