import type { Router } from 'express';

function isRouter(handle: unknown): handle is Router {
  return typeof handle === 'function' && 'stack' in handle && Array.isArray(handle.stack);
}

/**
 * Every route path `router` dispatches, under `prefix`, read from its stack
 * (Express 5: route layers, and routers mounted without a path, as apiRouter
 * mounts every resource): the templates of the HTTP metrics' `route` label.
 */
export function routeTemplates(router: Router, prefix: string): string[] {
  const templates: string[] = [];
  for (const layer of router.stack) {
    const path: unknown = layer.route?.path;
    if (typeof path === 'string') templates.push(`${prefix}${path}`);
    else if (isRouter(layer.handle)) templates.push(...routeTemplates(layer.handle, prefix));
  }
  return templates;
}
