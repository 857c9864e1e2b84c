import { activityCreateSchema } from '@leadhook/contracts';
import { type ActivitiesContext, activityCatalog, reportActivity } from './activities.service.js';
import { accountIdOf } from './auth.middleware.js';
import { ApiError, notFound, validationFailed } from './errors.js';
import { defineRoute } from './route.js';

const catalog = activityCatalog();

/** `/leads/{id}/activities` and `/activity_catalog` (docs/api.md, "Activities"). Mounted behind requireApiKey. */
export const activitiesRoutes = [
  defineRoute({
    method: 'post',
    path: '/leads/{id}/activities',
    operationId: 'reportActivity',
    summary: 'Report an activity on a lead (dialer, copilot, an agent, an inbound reply)',
    description:
      "The activity takes the same path as the playbook worker's own: it is on the timeline and sent to the subscriptions that selected its label. An outcome is terminal and stops an active play (a `stopped` event is recorded first). A message_received whose `data.body` is STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT; any case) opts the lead out at once: `stopped` and the outcome `opted_out` follow it. The answer is the reported activity, with every other activity the report recorded in `caused`, in occurrence order.",
    tag: 'Activities',
    body: activityCreateSchema,
    success: {
      status: 201,
      schema: 'ActivityReport',
      description: 'The reported activity; `caused` lists what else it recorded ([] when nothing).',
    },
    conflicts: {
      status: 409,
      description:
        'outcome_exists: the lead already has an outcome (the message names it); at most one per lead.',
    },
    invalid:
      'validation_failed: the body does not fit ActivityCreate, or activity_label is not a catalog label of that activity_type (details code unknown_label or type_mismatch; the message names the label and the allowed ones), or message_received lacks data.body.',
    handler: async ({ res, params, body }, ctx: ActivitiesContext) => {
      const result = await reportActivity(ctx, accountIdOf(res), params.id, body);
      switch (result.kind) {
        case 'invalid': {
          // One problem: its own message is the clearest summary (it names the label
          // and what is allowed); several: the usual count.
          const [only, ...more] = result.details;
          if (only && more.length === 0) {
            throw new ApiError(422, 'validation_failed', only.message, result.details);
          }
          throw validationFailed(result.details);
        }
        case 'not_found':
          throw notFound('lead');
        case 'outcome_exists':
          throw new ApiError(
            409,
            'outcome_exists',
            `The lead already has the outcome "${result.outcome}"; a lead has at most one outcome.`,
          );
        case 'recorded':
          res.status(201).json(result.report);
      }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/activity_catalog',
    operationId: 'getActivityCatalog',
    summary: 'Every event and outcome label with its meaning',
    description:
      'The whole catalog in one page (next_cursor is always null). `interested` is both an event and an outcome.',
    tag: 'Activities',
    success: { status: 200, schema: 'ActivityCatalog', description: 'The activity catalog.' },
    handler: ({ res }, _ctx: ActivitiesContext) => {
      res.json(catalog);
    },
  }),
];
