import { routeMatcher } from './route-label.js';

const match = routeMatcher([
  '/api/v1/playbooks',
  '/api/v1/playbooks/:id',
  '/api/v1/playbooks/:id/subscriptions',
  '/api/v1/marketing_sources/:id/stats',
  '/api/v1/:kind/stats',
  '/api/v1/stats/sources',
  '/healthz',
]);

it.each([
  ['/api/v1/playbooks', '/api/v1/playbooks'],
  ['/api/v1/playbooks/', '/api/v1/playbooks'],
  ['/api/v1/playbooks?limit=2', '/api/v1/playbooks'],
  ['/API/v1/Playbooks', '/api/v1/playbooks'],
  ['/api/v1/playbooks/pb_1', '/api/v1/playbooks/:id'],
  ['/api/v1/playbooks/pb_1/subscriptions', '/api/v1/playbooks/:id/subscriptions'],
  // A literal segment wins over a parameter at the same place.
  ['/api/v1/stats/sources', '/api/v1/stats/sources'],
  ['/api/v1/marketing_sources/src_1/stats', '/api/v1/marketing_sources/:id/stats'],
  ['/api/v1/leads/stats', '/api/v1/:kind/stats'],
  ['/healthz', '/healthz'],
])('%s → %s', (path, label) => {
  expect(match(path)).toBe(label);
});

it.each([
  '/',
  '/api/v1',
  '/api/v1/playbooks/pb_1/subscriptions/x',
  '/api/v1//subscriptions',
  '/other',
])('%s matches no template', (path) => {
  expect(match(path)).toBeUndefined();
});

it('refuses a template that is not a plain path', () => {
  expect(() => routeMatcher(['/files/*path'])).toThrow(/not a plain path/);
});
