import {
  listQuerySchema,
  type SubscriptionCreate,
  subscriptionCreateSchema,
  subscriptionListQuerySchema,
  subscriptionUpdateSchema,
} from '@leadhook/contracts';
import type { Response } from 'express';
import { accountIdOf } from './auth.middleware.js';
import { found, notFound, validationFailed } from './errors.js';
import { type PageQuery, pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';
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

async function create(
  ctx: SubscriptionRoutesContext,
  res: Response,
  body: SubscriptionCreate,
  playbookId: string | null,
) {
  const result = await createSubscription(ctx, accountIdOf(res), playbookId, body);
  res.status(201).json(subscriptionOf(result, 'playbook'));
}

async function list(
  ctx: SubscriptionRoutesContext,
  res: Response,
  query: PageQuery,
  playbookId: string | null,
  accountWideOnly = false,
) {
  const result = await listSubscriptions(
    ctx,
    accountIdOf(res),
    playbookId,
    pageRequestOf(query),
    accountWideOnly,
  );
  res.json(found(result, 'playbook').page);
}

const SECRET_NOTE =
  'The answer is the only place the signing secret (`secret`, `whsec_…`) is shown; reads, lists and updates never carry it.';

const SELECTION_INVALID =
  'validation_failed: the body does not fit the schema, or (details codes) `unknown_label` names a label that is not in the catalog for its list, `no_labels` when events and outcomes are both empty, `invalid` for "*" with other labels, a URL that is not http(s) or whose host is not written as it parses, `private_target` for a literal loopback/private/link-local/metadata host, an IPv6 address outside 2000::/3, or localhost (unless the operator allows private targets).';

const subscriptionFields = (scope: string) =>
  `${scope} \`events\` and \`outcomes\` are separate lists of catalog labels, \`["*"]\` for all of that kind, or \`[]\` for none; together at least one label. ${SECRET_NOTE}`;

/** What creating a subscription takes and answers, per playbook or account-wide alike. */
const CREATE_OPERATION = {
  method: 'post',
  tag: 'Subscriptions',
  body: subscriptionCreateSchema,
  success: {
    status: 201,
    schema: 'SubscriptionWithSecret',
    description: 'The new subscription with its signing secret (shown only here).',
  },
  invalid: SELECTION_INVALID,
} as const;

/** What listing subscriptions takes and answers, per playbook or account-wide alike. */
const LIST_OPERATION = {
  method: 'get',
  tag: 'Subscriptions',
  query: listQuerySchema,
  success: { status: 200, schema: 'SubscriptionList', description: 'A page of subscriptions.' },
} as const;

/**
 * Activity subscriptions (docs/api.md, "Subscriptions"; docs/webhooks.md): per playbook under
 * `/playbooks/{id}`, and account-wide under `/subscriptions`. Mounted behind requireApiKey.
 */
export const subscriptionsRoutes = [
  defineRoute({
    ...CREATE_OPERATION,
    path: '/playbooks/{id}/subscriptions',
    operationId: 'createPlaybookSubscription',
    summary: "Subscribe a URL to a playbook's activities",
    description: subscriptionFields("Deliveries carry the playbook's leads' activities."),
    handler: async ({ res, params, body }, ctx: SubscriptionRoutesContext) => {
      await create(ctx, res, body, params.id);
    },
  }),
  defineRoute({
    ...LIST_OPERATION,
    path: '/playbooks/{id}/subscriptions',
    operationId: 'listPlaybookSubscriptions',
    summary: "List a playbook's subscriptions, newest first",
    description:
      'Only the subscriptions of this playbook; account-wide ones are listed by GET /subscriptions.',
    handler: async ({ res, params, query }, ctx: SubscriptionRoutesContext) => {
      await list(ctx, res, query, params.id);
    },
  }),
  defineRoute({
    ...CREATE_OPERATION,
    path: '/subscriptions',
    operationId: 'createAccountSubscription',
    summary: "Subscribe a URL to every playbook's activities (account-wide)",
    description: subscriptionFields(
      'An account-wide subscription (playbook_id null) receives the activities of every playbook of the account, present and future.',
    ),
    handler: async ({ res, body }, ctx: SubscriptionRoutesContext) => {
      await create(ctx, res, body, null);
    },
  }),
  defineRoute({
    ...LIST_OPERATION,
    path: '/subscriptions',
    operationId: 'listSubscriptions',
    summary: "List the account's subscriptions, newest first",
    description:
      'Account-wide (playbook_id null) and per-playbook subscriptions alike, or with `scope=account` the account-wide ones only.',
    query: subscriptionListQuerySchema,
    handler: async ({ res, query }, ctx: SubscriptionRoutesContext) => {
      await list(ctx, res, query, null, query.scope === 'account');
    },
  }),
  defineRoute({
    method: 'get',
    path: '/subscriptions/{id}',
    operationId: 'getSubscription',
    summary: 'Get a subscription (without its secret)',
    tag: 'Subscriptions',
    success: { status: 200, schema: 'Subscription', description: 'The subscription.' },
    handler: async ({ res, params }, ctx: SubscriptionRoutesContext) => {
      res.json(subscriptionOf(await getSubscription(ctx, accountIdOf(res), params.id)));
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/subscriptions/{id}',
    operationId: 'updateSubscription',
    summary: 'Update url, events, outcomes or enabled',
    description:
      'The given fields replace the stored ones; the result must still select at least one label. `enabled: false` records disabled_reason `manual`; `enabled: true` on a disabled subscription clears disabled_code, disabled_reason, disabled_at and failing_since.',
    tag: 'Subscriptions',
    body: subscriptionUpdateSchema,
    success: { status: 200, schema: 'Subscription', description: 'The updated subscription.' },
    invalid: SELECTION_INVALID,
    handler: async ({ res, params, body }, ctx: SubscriptionRoutesContext) => {
      const result = await updateSubscription(ctx, accountIdOf(res), params.id, body);
      res.json(subscriptionOf(result));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/subscriptions/{id}',
    operationId: 'deleteSubscription',
    summary: 'Delete a subscription',
    tag: 'Subscriptions',
    success: { status: 204, description: 'Deleted; the subscription now answers 404.' },
    handler: async ({ res, params }, ctx: SubscriptionRoutesContext) => {
      found(await deleteSubscription(ctx, accountIdOf(res), params.id), 'subscription');
      res.status(204).end();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/subscriptions/{id}/rotate_secret',
    operationId: 'rotateSubscriptionSecret',
    summary: 'Issue a new signing secret; the previous one keeps signing for 24 hours',
    description:
      'During the overlap every delivery carries two signatures in `webhook-signature` (space-separated, Standard Webhooks), one per secret, so the receiver can switch without dropping a delivery. A second rotation inside the overlap drops the oldest secret.',
    tag: 'Subscriptions',
    success: {
      status: 200,
      schema: 'SubscriptionWithSecret',
      description:
        'The subscription with its new secret (shown only here) and previous_secret_expires_at.',
    },
    handler: async ({ res, params }, ctx: SubscriptionRoutesContext) => {
      res.json(subscriptionOf(await rotateSubscriptionSecret(ctx, accountIdOf(res), params.id)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/subscriptions/{id}/test',
    operationId: 'testSubscription',
    summary: 'Send a signed test delivery now and report the answer',
    description:
      'A delivery signed like any other, with activity_type `event`, activity_label `test` (a reserved label: GET /activity_catalog lists it in group `reserved`; no subscription can select it, and every subscription gets its test delivery whatever it selected), an id of its own (`act_test_…`, also its webhook-id), empty lead fields and `data: {}`. It is sent once, now, and not stored; the answer reports what the subscriber answered. A subscriber that fails is still a 200 here, with `ok: false`.',
    tag: 'Subscriptions',
    success: {
      status: 200,
      schema: 'SubscriptionTestResult',
      description: "The subscriber's status code, latency, error and the start of its answer.",
    },
    handler: async ({ res, params }, ctx: SubscriptionRoutesContext) => {
      const test = await sendTestDelivery(ctx, accountIdOf(res), params.id);
      res.json(found(test, 'subscription').result);
    },
  }),
];
