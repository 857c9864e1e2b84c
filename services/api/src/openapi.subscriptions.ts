import { deliveryStatusFilterSchema } from '@leadhook/contracts';
import type { Operation } from './openapi.schemas.js';

/**
 * The activity subscription and delivery operations of the OpenAPI document
 * (docs/api.md, docs/webhooks.md), apart from openapi.operations.ts to keep each file small.
 * openapi.test.ts checks them against the router like every other operation.
 */

const SECRET_NOTE =
  'The answer is the only place the signing secret (`secret`, `whsec_…`) is shown; reads, lists and updates never carry it.';

const SELECTION_INVALID =
  'validation_failed: the body does not fit the schema, or (details codes) `unknown_label` names a label that is not in the catalog for its list, `no_labels` when events and outcomes are both empty, `invalid` for "*" with other labels, a URL that is not http(s) or whose host is not written as it parses, `private_target` for a literal loopback/private/link-local/metadata host, an IPv6 address outside 2000::/3, or localhost (unless the operator allows private targets).';

const subscriptionFields = (scope: string) =>
  `${scope} \`events\` and \`outcomes\` are separate lists of catalog labels, \`["*"]\` for all of that kind, or \`[]\` for none; together at least one label. ${SECRET_NOTE}`;

export const SUBSCRIPTION_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/playbooks/{id}/subscriptions',
    operationId: 'createPlaybookSubscription',
    summary: "Subscribe a URL to a playbook's activities",
    description: subscriptionFields("Deliveries carry the playbook's leads' activities."),
    tag: 'Subscriptions',
    body: 'SubscriptionCreate',
    success: {
      status: 201,
      schema: 'SubscriptionWithSecret',
      description: 'The new subscription with its signing secret (shown only here).',
    },
    invalid: SELECTION_INVALID,
  },
  {
    method: 'get',
    path: '/playbooks/{id}/subscriptions',
    operationId: 'listPlaybookSubscriptions',
    summary: "List a playbook's subscriptions, newest first",
    description:
      'Only the subscriptions of this playbook; account-wide ones are listed by GET /subscriptions.',
    tag: 'Subscriptions',
    list: true,
    success: { status: 200, schema: 'SubscriptionList', description: 'A page of subscriptions.' },
  },
  {
    method: 'post',
    path: '/subscriptions',
    operationId: 'createAccountSubscription',
    summary: "Subscribe a URL to every playbook's activities (account-wide)",
    description: subscriptionFields(
      'An account-wide subscription (playbook_id null) receives the activities of every playbook of the account, present and future.',
    ),
    tag: 'Subscriptions',
    body: 'SubscriptionCreate',
    success: {
      status: 201,
      schema: 'SubscriptionWithSecret',
      description: 'The new subscription with its signing secret (shown only here).',
    },
    invalid: SELECTION_INVALID,
  },
  {
    method: 'get',
    path: '/subscriptions',
    operationId: 'listSubscriptions',
    summary: "List all the account's subscriptions, newest first",
    description: 'Account-wide (playbook_id null) and per-playbook subscriptions alike.',
    tag: 'Subscriptions',
    list: true,
    success: { status: 200, schema: 'SubscriptionList', description: 'A page of subscriptions.' },
  },
  {
    method: 'get',
    path: '/subscriptions/{id}',
    operationId: 'getSubscription',
    summary: 'Get a subscription (without its secret)',
    tag: 'Subscriptions',
    success: { status: 200, schema: 'Subscription', description: 'The subscription.' },
  },
  {
    method: 'patch',
    path: '/subscriptions/{id}',
    operationId: 'updateSubscription',
    summary: 'Update url, events, outcomes or enabled',
    description:
      'The given fields replace the stored ones; the result must still select at least one label. `enabled: false` records disabled_reason `manual`; `enabled: true` on a disabled subscription clears disabled_reason, disabled_at and failing_since.',
    tag: 'Subscriptions',
    body: 'SubscriptionUpdate',
    success: { status: 200, schema: 'Subscription', description: 'The updated subscription.' },
    invalid: SELECTION_INVALID,
  },
  {
    method: 'delete',
    path: '/subscriptions/{id}',
    operationId: 'deleteSubscription',
    summary: 'Delete a subscription',
    tag: 'Subscriptions',
    success: { status: 204, description: 'Deleted; the subscription now answers 404.' },
  },
  {
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
  },
  {
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
  },
  {
    method: 'get',
    path: '/subscriptions/{id}/deliveries',
    operationId: 'listDeliveries',
    summary: "The subscription's delivery log, newest first, each delivery with its attempts",
    tag: 'Deliveries',
    list: true,
    filters: { status: deliveryStatusFilterSchema },
    success: { status: 200, schema: 'DeliveryList', description: 'A page of deliveries.' },
  },
  {
    method: 'get',
    path: '/deliveries/{id}',
    operationId: 'getDelivery',
    summary: 'One delivery with its attempts',
    tag: 'Deliveries',
    success: { status: 200, schema: 'Delivery', description: 'The delivery.' },
  },
  {
    method: 'post',
    path: '/deliveries/{id}/redeliver',
    operationId: 'redeliver',
    summary: 'Send a delivery again, with the same webhook-id',
    description:
      'Whatever its status, the delivery is set pending, due now, with the whole retry schedule again, and handed to the webhook worker by this call: a healthy subscriber gets it within moments (if Redis is unreachable, the webhook worker finds it in the database within its reconcile interval, 5 s). Its webhook-id stays the activity id, so a receiver that already handled it deduplicates. Earlier attempts stay listed and counted in attempt_count. Answers 200 with the delivery as it is now (`pending`, or `queued` behind an earlier unfinished delivery of the same lead); the send itself is asynchronous.',
    tag: 'Deliveries',
    success: { status: 200, schema: 'Delivery', description: 'The delivery, pending again.' },
  },
  {
    method: 'post',
    path: '/subscriptions/{id}/recover',
    operationId: 'recoverDeliveries',
    summary: 'Send again every failed delivery created since a date',
    description:
      'Each failed delivery of the subscription created at or after `since` is reset and sent at once, as redeliver does. Pending and succeeded deliveries are left alone. A disabled subscription stays disabled: enable it first for the deliveries to go out.',
    tag: 'Deliveries',
    body: 'SubscriptionRecover',
    success: {
      status: 200,
      schema: 'SubscriptionRecoverResult',
      description: 'How many failed deliveries were reset.',
    },
  },
];
