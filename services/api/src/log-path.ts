import { API_ROUTES } from './routes.js';

/**
 * A request path as the request log writes it. Ids are kept (they are how a line
 * is traced), and so are the API's own words; any other segment is what a caller
 * typed where an id goes (`/leads/jane@example.com`), which may be personal data,
 * and is logged as `[redacted]` (as intake logs the source key).
 */

const WORDS = new Set([
  'api',
  'v1',
  ...API_ROUTES.flatMap((route) => route.path.split('/')).filter(
    (s) => s !== '' && !s.startsWith('{'),
  ),
]);
const ID = /^[a-z]+_[0-9a-z]{26}$/;

export function redactApiPath(path: string): string {
  return path
    .split('/')
    .map((segment) =>
      segment === '' || WORDS.has(segment) || ID.test(segment) ? segment : '[redacted]',
    )
    .join('/');
}
