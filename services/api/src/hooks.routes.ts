import { hookCreateSchema, hookSamplesQuerySchema, listQuerySchema } from '@leadhook/contracts';
import { accountIdOf } from './auth.middleware.js';
import { notFound, validationFailed } from './errors.js';
import { createHook, deleteHook, hookSamples, labelTypes, listHooks } from './hooks.service.js';
import { pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';
import type { SubscriptionsContext } from './subscriptions.service.js';

const HOOK_INVALID =
  'validation_failed: the body does not fit the schema; `target_url`, `events` and `outcomes` follow the rules of POST /subscriptions (`unknown_label`, `no_labels`, `invalid`, `private_target`); `playbook_id` `not_found` when it names none of your live playbooks.';

/**
 * REST hooks (docs/api.md, "REST hooks"): subscribe and unsubscribe calls for
 * automation platforms (Zapier, Make, n8n), and the sample payloads their
 * editors show. Mounted behind requireApiKey.
 */
export const hooksRoutes = [
  defineRoute({
    method: 'post',
    path: '/hooks',
    operationId: 'subscribeHook',
    summary: 'Subscribe a URL (a REST hook); no handshake',
    description:
      'A hook is an activity subscription (listed by GET /subscriptions with created_via `hooks`): the same deliveries, signing, retries and URL rules. Without playbook_id it receives the activities of every playbook of the account. A 410 Gone from target_url deletes the hook.',
    tag: 'Hooks',
    body: hookCreateSchema,
    success: {
      status: 201,
      schema: 'HookWithSecret',
      description: 'The hook: its `id` is what DELETE /hooks/{id} takes.',
    },
    invalid: HOOK_INVALID,
    handler: async ({ res, body }, ctx: SubscriptionsContext) => {
      const result = await createHook(ctx, accountIdOf(res), body);
      if (result.kind === 'invalid') throw validationFailed(result.details);
      if (result.kind === 'not_found') throw notFound('playbook');
      res.status(201).json(result.subscription);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/hooks',
    operationId: 'listHooks',
    summary: "List the account's hooks, newest first",
    description: 'Only the subscriptions made by POST /hooks; GET /subscriptions lists them all.',
    tag: 'Hooks',
    query: listQuerySchema,
    success: { status: 200, schema: 'HookList', description: 'A page of hooks.' },
    handler: async ({ res, query }, ctx: SubscriptionsContext) => {
      res.json(await listHooks(ctx.prisma, accountIdOf(res), pageRequestOf(query)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/hooks/samples',
    operationId: 'hookSamples',
    summary: 'Up to 3 sample webhook bodies of a label, newest first',
    description:
      "Built exactly as deliveries are: the account's latest activities of the label (among its 200 newest leads), or one realistic synthetic activity when it has none (nothing is stored or sent).",
    tag: 'Hooks',
    query: hookSamplesQuerySchema,
    success: { status: 200, schema: 'HookSamples', description: 'The samples, newest first.' },
    invalid:
      'validation_failed: `label` missing, or `unknown_label` when it is not in the catalog (for `type`, when given).',
    handler: async ({ res, query }, ctx: SubscriptionsContext) => {
      const types = labelTypes(query.label).filter((t) => !query.type || t === query.type);
      if (types.length === 0) {
        throw validationFailed([
          {
            field: 'label',
            code: 'unknown_label',
            message: `"${query.label}" is not ${query.type ? `an ${query.type} label` : 'a label'} of the activity catalog (GET /activity_catalog).`,
          },
        ]);
      }
      res.json({ data: await hookSamples(ctx.prisma, accountIdOf(res), query.label, types) });
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/hooks/{id}',
    operationId: 'unsubscribeHook',
    summary: 'Unsubscribe a hook',
    description:
      'Deletes the hook as DELETE /subscriptions/{id} does. An id of a subscription not made by POST /hooks answers 404.',
    tag: 'Hooks',
    success: { status: 204, description: 'Deleted; the hook now answers 404.' },
    handler: async ({ res, params }, ctx: SubscriptionsContext) => {
      if (!(await deleteHook(ctx.prisma, accountIdOf(res), params.id))) throw notFound('hook');
      res.status(204).end();
    },
  }),
];
