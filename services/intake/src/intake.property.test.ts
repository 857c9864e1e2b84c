import { leadSubmissionSchema } from '@leadhook/contracts';
import { createMetrics, healthRoutes } from '@leadhook/observability';
import { hostileBodies, schemaFields, validLead } from '@leadhook/testkit';
import fc from 'fast-check';
import request from 'supertest';
import { createHarness, type Harness, type TestSource } from './testing/harness.js';

/**
 * Every field of the lead body, found in its JSON Schema (the 16 fields,
 * external_id, and the seller's own extra fields, names and values), given NUL,
 * lone surrogates, RTL overrides, very long text or a value nested 5,000
 * levels, as JSON and as a form: the answer is a 2xx or a documented 4xx (the
 * harness checks each against the OpenAPI document), never a 5xx, nothing is
 * logged as an error, and intake stays healthy (docs/intake.md, "Answers").
 */

let h: Harness;
let source: TestSource;
beforeAll(async () => {
  h = await createHarness();
  source = await h.makeSource();
});
afterAll(async () => {
  await h.close();
});

/** Over the 64 KiB body limit, in UTF-8. */
const LONG = 40_000;

it('every field of a lead, as JSON and as a form: a 2xx or a documented 4xx, never a 5xx', async () => {
  const app = h.buildApp({
    health: healthRoutes({ checks: {}, registry: createMetrics('intake-property').registry }),
  });
  const fields = schemaFields(leadSubmissionSchema);
  expect(fields.strings).toContainEqual(['external_id']);
  expect(fields.freeForm).toEqual([[]]);
  const statuses = new Set<number>();
  await fc.assert(
    fc.asyncProperty(
      hostileBodies(validLead(), fields, LONG),
      fc.constantFrom('json', 'form'),
      fc.boolean(),
      async ({ text, deep }, encoding, idempotent) => {
        let req = request(app).post(source.path);
        if (idempotent) req = req.set('Idempotency-Key', `prop-${Math.random()}`);
        const res =
          encoding === 'json' || deep
            ? await req.set('Content-Type', 'application/json').send(text)
            : await req
                .type('form')
                .send(new URLSearchParams(Object.entries(JSON.parse(text))).toString());
        statuses.add(res.status);
        expect(res.status).toBeLessThan(500);
        expect(res.status).toBeGreaterThanOrEqual(200);
      },
    ),
    { numRuns: 200 },
  );
  expect(statuses).toContain(422);
  expect([...statuses].some((status) => status < 300)).toBe(true);
  const errors = h.logLines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  expect(errors).toEqual([]);
  expect((await request(app).get('/healthz')).status).toBe(200);
}, 60_000);
