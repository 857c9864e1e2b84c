import { activityCreateSchema } from '@leadhook/contracts';
import { Router } from 'express';
import { type ActivitiesContext, activityCatalog, reportActivity } from './activities.service.js';
import { accountIdOf } from './auth.middleware.js';
import { ApiError, notFound, validationFailed } from './errors.js';
import { bodyValidator } from './validation.js';

const validateCreate = bodyValidator(activityCreateSchema);

/** `/activity_catalog` and `/leads/{id}/activities` (docs/api.md, "Activities"). Mounted behind requireApiKey. */
export function activitiesRoutes(ctx: ActivitiesContext): Router {
  const router = Router();
  const catalog = activityCatalog();

  router.get('/activity_catalog', (_req, res) => {
    res.json(catalog);
  });

  router.post('/leads/:id/activities', async (req, res) => {
    const body = validateCreate(req.body);
    if (!body.ok) throw validationFailed(body.details);
    const result = await reportActivity(ctx, accountIdOf(res), req.params.id, body.value);
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
  });

  return router;
}
