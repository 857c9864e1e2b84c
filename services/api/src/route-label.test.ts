import { useHarness } from '@leadhook/testkit';
import request from 'supertest';
import { playbookBody, startHarness } from './testing/harness.js';

/**
 * The api's HTTP metrics carry the matched route template as `route`, the same
 * for every status of one route (docs/operations.md "Metrics"), read back from
 * /metrics as an operator's scrape would.
 */

const h = useHarness(() => startHarness());

/** `route` → `status` → count, of leadhook_http_requests_total for `method`. */
async function counted(method: string): Promise<Map<string, Map<string, number>>> {
  const res = await request(h.internal).get('/metrics');
  expect(res.status).toBe(200);
  const counts = new Map<string, Map<string, number>>();
  for (const line of res.text.split('\n')) {
    if (!line.startsWith('leadhook_http_requests_total{')) continue;
    const labels = Object.fromEntries(
      [...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as const),
    );
    if (labels.method !== method || labels.route === undefined || labels.status === undefined) {
      continue;
    }
    const byStatus = counts.get(labels.route) ?? new Map<string, number>();
    byStatus.set(labels.status, Number(line.split(' ').at(-1)));
    counts.set(labels.route, byStatus);
  }
  return counts;
}

it('labels 201, 401 and 422 of POST /api/v1/playbooks with the same template', async () => {
  const { api_key } = await h.newAccount();
  expect((await h.as(api_key).post('/api/v1/playbooks').send(playbookBody())).status).toBe(201);
  expect((await h.anonymous.post('/api/v1/playbooks').send(playbookBody())).status).toBe(401);
  expect((await h.as(api_key).post('/api/v1/playbooks').send({ steps: 'no' })).status).toBe(422);

  const posts = await counted('POST');
  expect(Object.fromEntries(posts.get('/api/v1/playbooks') ?? [])).toEqual({
    '201': 1,
    '401': 1,
    '422': 1,
  });
  expect(posts.has('/playbooks')).toBe(false);
  expect(posts.has('unmatched')).toBe(false);
});

it('labels a path with an id by its template, a 404 of the route too; unmatched only when no route matches', async () => {
  const { api_key } = await h.newAccount();
  const api = h.as(api_key);
  const id: string = (await api.post('/api/v1/playbooks').send(playbookBody())).body.id;
  expect((await api.get(`/api/v1/playbooks/${id}`)).status).toBe(200);
  expect((await api.get('/api/v1/playbooks/pb_00000000000000000000000000')).status).toBe(404);
  expect((await request(h.app).get(`/api/v1/playbooks/${id}/`)).status).toBe(401);
  expect((await api.get(`/api/v1/playbooks/${id}/subscriptions`)).status).toBe(200);
  expect(
    (await request(h.app).get('/api/v1/no_such_thing').set('authorization', `Bearer ${api_key}`))
      .status,
  ).toBe(404);
  expect((await request(h.app).get('/elsewhere')).status).toBe(404);

  const gets = await counted('GET');
  expect(Object.fromEntries(gets.get('/api/v1/playbooks/:id') ?? [])).toEqual({
    '200': 1,
    '401': 1,
    '404': 1,
  });
  expect(Object.fromEntries(gets.get('/api/v1/playbooks/:id/subscriptions') ?? [])).toEqual({
    '200': 1,
  });
  expect(Object.fromEntries(gets.get('unmatched') ?? [])).toEqual({ '404': 2 });
  // Outside /api/v1: the scrapes of this test (a route of their own) and the unmatched paths.
  expect([...gets.keys()].filter((route) => !route.startsWith('/api/v1/')).sort()).toEqual([
    '/metrics',
    'unmatched',
  ]);
});
