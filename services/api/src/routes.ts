import { accountRoutes } from './account.routes.js';
import { activitiesRoutes } from './activities.routes.js';
import { deliveriesRoutes } from './deliveries.routes.js';
import { hooksRoutes } from './hooks.routes.js';
import { leadsRoutes } from './leads.routes.js';
import { metaRoutes } from './meta.routes.js';
import { playbooksRoutes } from './playbooks.routes.js';
import type { Route } from './route.js';
import { sourceLeadsRoutes } from './source-leads.routes.js';
import { sourcesRoutes } from './sources.routes.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import { suppressionsRoutes } from './suppressions.routes.js';

/**
 * Every route of the management API, in the order the OpenAPI document lists
 * them: its operations, the HTTP metrics' route templates and the request log's
 * known path words all come from this list. apiRouter mounts each group with
 * what its handlers need; openapi.test.ts asks each declared route to answer.
 */
export const API_ROUTES: readonly Route<never>[] = [
  ...metaRoutes,
  ...accountRoutes,
  ...playbooksRoutes,
  ...sourcesRoutes,
  ...sourceLeadsRoutes,
  ...leadsRoutes,
  ...activitiesRoutes,
  ...subscriptionsRoutes,
  ...hooksRoutes,
  ...deliveriesRoutes,
  ...suppressionsRoutes,
];
