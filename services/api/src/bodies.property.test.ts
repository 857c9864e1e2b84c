import {
  accountUpdateSchema,
  activityCreateSchema,
  marketingSourceCreateSchema,
  marketingSourceUpdateSchema,
  playbookCreateSchema,
  playbookUpdateSchema,
  subscriptionCreateSchema,
  subscriptionUpdateSchema,
} from '@leadhook/contracts';
import { hostileBodies, schemaFields } from '@leadhook/testkit';
import fc from 'fast-check';
import supertest from 'supertest';
import {
  type AuthedAgent,
  type Harness,
  playbookBody,
  sourceBody,
  startHarness,
} from './testing/harness.js';
import { createLead } from './testing/leads.factory.js';

/**
 * Every string field of every API body, found in its JSON Schema, given NUL,
 * lone surrogates, RTL overrides, very long text or a value nested 5,000
 * levels: the answer is a 2xx or a documented 4xx (the harness checks each
 * against the OpenAPI document), never a 5xx, and the API stays healthy
 * (docs/api.md, "Conventions").
 */

let h: Harness;
let api: AuthedAgent;

interface Endpoint {
  name: string;
  method: 'post' | 'patch';
  path: string;
  schema: unknown;
  body: object;
}
let endpoints: Endpoint[];

beforeAll(async () => {
  h = await startHarness();
  const owner = await h.owner();
  const { accountId: account_id, playbookId } = owner;
  api = owner.api;
  const sourceId = await h.newSource(owner);
  const subscription = { url: 'https://crm.example.com/hooks/leadhook', events: ['*'] };
  const subscriptionId: string = (await api.post('/api/v1/subscriptions').send(subscription)).body
    .id;
  const leadId = await createLead(h.prisma, { accountId: account_id, playbookId, sourceId });
  endpoints = [
    {
      name: 'create playbook',
      method: 'post',
      path: '/api/v1/playbooks',
      schema: playbookCreateSchema,
      body: playbookBody(),
    },
    {
      name: 'update playbook',
      method: 'patch',
      path: `/api/v1/playbooks/${playbookId}`,
      schema: playbookUpdateSchema,
      body: playbookBody(),
    },
    {
      name: 'create source',
      method: 'post',
      path: '/api/v1/marketing_sources',
      schema: marketingSourceCreateSchema,
      body: sourceBody(playbookId),
    },
    {
      name: 'update source',
      method: 'patch',
      path: `/api/v1/marketing_sources/${sourceId}`,
      schema: marketingSourceUpdateSchema,
      body: { name: 'Acme' },
    },
    {
      name: 'create subscription',
      method: 'post',
      path: '/api/v1/subscriptions',
      schema: subscriptionCreateSchema,
      body: subscription,
    },
    {
      name: 'update subscription',
      method: 'patch',
      path: `/api/v1/subscriptions/${subscriptionId}`,
      schema: subscriptionUpdateSchema,
      body: { enabled: true },
    },
    {
      name: 'report activity',
      method: 'post',
      path: `/api/v1/leads/${leadId}/activities`,
      schema: activityCreateSchema,
      body: { activity_type: 'event', activity_label: 'message_received', data: { body: 'Yes' } },
    },
    {
      name: 'update account',
      method: 'patch',
      path: '/api/v1/account',
      schema: accountUpdateSchema,
      body: { name: 'Acme' },
    },
  ];
});
afterAll(async () => {
  await h.close();
});

/** Over the 256 KiB body limit, in UTF-8. */
const LONG = 140_000;

it('every string field of every body: a 2xx or a documented 4xx, never a 5xx', async () => {
  const cases = fc.oneof(
    ...endpoints.map((endpoint) => {
      return fc.record({
        endpoint: fc.constant(endpoint),
        body: hostileBodies(endpoint.body, schemaFields(endpoint.schema), LONG),
      });
    }),
  );
  // Every endpoint has string fields to attack (the walk found them).
  for (const endpoint of endpoints) {
    expect(schemaFields(endpoint.schema).strings.length).toBeGreaterThan(0);
  }
  const seen: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(cases, async ({ endpoint, body }) => {
      const res = await api[endpoint.method](endpoint.path)
        .set('Content-Type', 'application/json')
        .send(body.text);
      const key = `${endpoint.name} ${res.status}`;
      seen[key] = (seen[key] ?? 0) + 1;
      expect(res.status).toBeLessThan(500);
      expect(res.status).toBeGreaterThanOrEqual(200);
    }),
    { numRuns: 200 },
  );
  // The generated cases reached the schema (a 422), and some passed it (a 2xx).
  const statuses = Object.keys(seen).map((key) => Number(key.split(' ').pop()));
  expect(statuses).toContain(422);
  expect(statuses.some((status) => status < 300)).toBe(true);

  const health = await supertest(h.app).get('/healthz');
  expect(health.status).toBe(200);
  expect((await api.get('/api/v1/account')).status).toBe(200);
}, 60_000);
