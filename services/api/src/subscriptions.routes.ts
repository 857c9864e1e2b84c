import { subscriptionCreateSchema, subscriptionUpdateSchema } from '@leadhook/contracts';
import { type Response, Router } from 'express';
import { accountIdOf } from './auth.middleware.js';
import { notFound, validationFailed } from './errors.js';
import { pageRequestOf } from './pagination.js';
import { type SubscriptionTestContext, sendTestDelivery } from './subscription-test.service.js';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
  type SubscriptionResult,
  type SubscriptionsContext,
  updateSubscription,
} from './subscriptions.service.js';
import { bodyValidator } from './validation.js';

const validateCreate = bodyValidator(subscriptionCreateSchema);
const validateUpdate = bodyValidator(subscriptionUpdateSchema);

function subscriptionOf<T>(result: SubscriptionResult<T>, what = 'subscription'): T {
  switch (result.kind) {
    case 'not_found':
      throw notFound(what);
    case 'invalid':
      throw validationFailed(result.details);
    case 'ok':
      return result.subscription;
  }
}

export type SubscriptionRoutesContext = SubscriptionsContext & SubscriptionTestContext;

/**
 * Activity subscriptions (docs/api.md, "Subscriptions"): per playbook under `/playbooks/{id}`, and
 * account-wide under `/subscriptions`. Mounted behind requireApiKey.
 */
export function subscriptionsRoutes(ctx: SubscriptionRoutesContext): Router {
  const router = Router();

  async function create(res: Response, body: unknown, playbookId: string | null) {
    const input = validateCreate(body);
    if (!input.ok) throw validationFailed(input.details);
    const result = await createSubscription(ctx, accountIdOf(res), playbookId, input.value);
    res.status(201).json(subscriptionOf(result, 'playbook'));
  }

  router.post('/playbooks/:id/subscriptions', async (req, res) => {
    await create(res, req.body, req.params.id);
  });

  router.get('/playbooks/:id/subscriptions', async (req, res) => {
    const result = await listSubscriptions(
      ctx,
      accountIdOf(res),
      req.params.id,
      pageRequestOf(req),
    );
    if (result.kind === 'not_found') throw notFound('playbook');
    res.json(result.page);
  });

  router.post('/subscriptions', async (req, res) => {
    await create(res, req.body, null);
  });

  router.get('/subscriptions', async (req, res) => {
    const result = await listSubscriptions(ctx, accountIdOf(res), null, pageRequestOf(req));
    if (result.kind === 'not_found') throw notFound('playbook');
    res.json(result.page);
  });

  router.get('/subscriptions/:id', async (req, res) => {
    res.json(subscriptionOf(await getSubscription(ctx, accountIdOf(res), req.params.id)));
  });

  router.patch('/subscriptions/:id', async (req, res) => {
    const input = validateUpdate(req.body);
    if (!input.ok) throw validationFailed(input.details);
    const result = await updateSubscription(ctx, accountIdOf(res), req.params.id, input.value);
    res.json(subscriptionOf(result));
  });

  router.delete('/subscriptions/:id', async (req, res) => {
    const result = await deleteSubscription(ctx, accountIdOf(res), req.params.id);
    if (result.kind === 'not_found') throw notFound('subscription');
    res.status(204).end();
  });

  router.post('/subscriptions/:id/rotate_secret', async (req, res) => {
    res.json(subscriptionOf(await rotateSubscriptionSecret(ctx, accountIdOf(res), req.params.id)));
  });

  router.post('/subscriptions/:id/test', async (req, res) => {
    const result = await sendTestDelivery(ctx, accountIdOf(res), req.params.id);
    if (result.kind === 'not_found') throw notFound('subscription');
    res.json(result.result);
  });

  return router;
}
