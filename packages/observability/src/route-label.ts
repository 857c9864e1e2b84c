/**
 * The `route` label of the HTTP metrics from a list of route templates
 * (`/api/v1/playbooks/:id`): the template the request's path matches, whatever
 * answered it. Read from the path, not from where Express got to, so that a 401
 * of a middleware that runs before routing, or an error thrown out of a mounted
 * router (which restores req.baseUrl on its way out), is counted under the same
 * template as the route's 2xx.
 */

interface Template {
  label: string;
  /** Lower-cased literal segments; null where the template has a parameter. */
  segments: (string | null)[];
}

/** Segments of a path: no query, no trailing slash (Express routes match with and without one). */
function segmentsOf(path: string): string[] {
  const bare = (path.split('?')[0] ?? '').replace(/\/+$/, '');
  return bare === '' ? [] : bare.slice(1).split('/');
}

/**
 * Compiles `templates` (Express paths with `:name` parameters only) into a
 * matcher: the most specific template matching a path (a literal segment wins
 * over a parameter at the same place), or undefined.
 */
export function routeMatcher(templates: readonly string[]): (path: string) => string | undefined {
  const byLength = new Map<number, Template[]>();
  for (const label of new Set(templates)) {
    if (!label.startsWith('/') || /[*?{}()]/.test(label)) {
      throw new Error(`route template ${label} is not a plain path with :name parameters`);
    }
    const segments = segmentsOf(label).map((s) => (s.startsWith(':') ? null : s.toLowerCase()));
    const list = byLength.get(segments.length) ?? [];
    list.push({ label, segments });
    byLength.set(segments.length, list);
  }
  const specificity = (t: Template) => t.segments.map((s) => (s === null ? '0' : '1')).join('');
  for (const list of byLength.values()) {
    list.sort((a, b) => specificity(b).localeCompare(specificity(a)));
  }
  return (path) => {
    const segments = segmentsOf(path);
    const candidates = byLength.get(segments.length);
    if (!candidates) return undefined;
    const lower = segments.map((s) => s.toLowerCase());
    return candidates.find((t) =>
      t.segments.every((s, i) => (s === null ? (lower[i] ?? '') !== '' : s === lower[i])),
    )?.label;
  };
}
