import { deliveryListQuerySchema, subscriptionRecoverSchema } from '@leadhook/contracts';
import { accountIdOf } from './auth.middleware.js';
import {
  type DeliveryActionDeps,
  getDelivery,
  listDeliveries,
  recoverDeliveries,
  redeliver,
} from './deliveries.service.js';
import { found, validationFailed } from './errors.js';
import { pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';
import { resolvePeriod } from './stats.range.js';

/** The delivery log, redeliver and recover (docs/api.md, "Deliveries"). Mounted behind requireApiKey. */
export const deliveriesRoutes = [
  defineRoute({
    method: 'get',
    path: '/subscriptions/{id}/deliveries',
    operationId: 'listDeliveries',
    summary: "The subscription's delivery log, newest first, each delivery with its attempts",
    description:
      'Filters combine (a delivery matches every one given) and page like the unfiltered list. `from`/`to` bound the time the delivery was created (`created_at`, the time `recover` compares with `since`) with the bounds of `GET /leads`: a day from 00:00 UTC, a `to` day inclusive, or an ISO 8601 instant.',
    tag: 'Deliveries',
    query: deliveryListQuerySchema,
    replicaRead:
      'a log the webhook worker keeps writing; one delivery after redeliver is read by id (GET /deliveries/{id}), on the primary',
    invalid:
      'validation_failed: status is not a delivery status, from or to is not a real date or date-time, or from is after to (field from).',
    success: { status: 200, schema: 'DeliveryList', description: 'A page of deliveries.' },
    handler: async ({ res, params, query }, deps: DeliveryActionDeps) => {
      const period = resolvePeriod(query);
      if (!period.ok) throw validationFailed(period.details);
      const filter = { status: query.status, from: period.from, until: period.until };
      const list = await listDeliveries(
        deps.prisma,
        accountIdOf(res),
        params.id,
        pageRequestOf(query),
        filter,
      );
      res.json(found(list, 'subscription').page);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/deliveries/{id}',
    operationId: 'getDelivery',
    summary: 'One delivery with its attempts',
    tag: 'Deliveries',
    success: { status: 200, schema: 'Delivery', description: 'The delivery.' },
    handler: async ({ res, params }, deps: DeliveryActionDeps) => {
      const { delivery } = found(
        await getDelivery(deps.prisma, accountIdOf(res), params.id),
        'delivery',
      );
      res.json(delivery);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/deliveries/{id}/redeliver',
    operationId: 'redeliver',
    summary: 'Send a delivery again, with the same webhook-id',
    description:
      'Whatever its status, the delivery is set pending, due now, with the whole retry schedule again, and handed to the webhook worker by this call: a healthy subscriber gets it within moments (if Redis is unreachable, the webhook worker finds it in the database within its reconcile interval, 5 s). Its webhook-id stays the activity id, so a receiver that already handled it deduplicates. Earlier attempts stay listed and counted in attempt_count. Answers 200 with the delivery as it is now (`pending`, or `queued` behind an earlier unfinished delivery of the same lead); the send itself is asynchronous.',
    tag: 'Deliveries',
    success: { status: 200, schema: 'Delivery', description: 'The delivery, pending again.' },
    handler: async ({ res, params }, deps: DeliveryActionDeps) => {
      const { delivery } = found(await redeliver(deps, accountIdOf(res), params.id), 'delivery');
      res.json(delivery);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/subscriptions/{id}/recover',
    operationId: 'recoverDeliveries',
    summary: 'Send again every failed delivery created since a date',
    description:
      'Each failed delivery of the subscription created at or after `since` is reset and sent at once, as redeliver does. Pending and succeeded deliveries are left alone. A disabled subscription stays disabled: enable it first for the deliveries to go out.',
    tag: 'Deliveries',
    body: subscriptionRecoverSchema,
    success: {
      status: 200,
      schema: 'SubscriptionRecoverResult',
      description: 'How many failed deliveries were reset.',
    },
    handler: async ({ res, params, body }, deps: DeliveryActionDeps) => {
      const since = new Date(body.since);
      const result = await recoverDeliveries(deps, accountIdOf(res), params.id, since);
      res.json({ recovered: found(result, 'subscription').recovered });
    },
  }),
];
