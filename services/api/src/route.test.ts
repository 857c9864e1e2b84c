import { listQuerySchema, playbookCreateSchema } from '@leadhook/contracts';
import { createLogger } from '@leadhook/observability';
import express from 'express';
import request from 'supertest';
import { ApiError, errorHandler } from './errors.js';
import { defineRoute, expressPath, mountRoutes, type Route } from './route.js';

/** One declared route, mounted on a bare app with the API's error envelope. */
function appWith(route: Route<string>) {
  const app = express();
  app.use(express.json());
  app.use(mountRoutes(express.Router(), [route], 'ctx'));
  app.use(errorHandler(createLogger({ service: 'route-test', level: 'silent' })));
  return app;
}

describe('defineRoute', () => {
  it('mounts {name} parameters as Express :name and hands the handler its params and context', async () => {
    expect(expressPath('/subscriptions/{id}/deliveries')).toBe('/subscriptions/:id/deliveries');
    const route = defineRoute({
      method: 'get',
      path: '/things/{id}/parts/{part}',
      operationId: 'getPart',
      summary: 'A part',
      tag: 'Meta',
      success: { status: 200, description: 'The part.' },
      handler: ({ res, params }, ctx: string) => {
        res.json({ id: params.id, part: params.part, ctx });
      },
    });
    const res = await request(appWith(route)).get('/things/t1/parts/p2');
    expect(res.body).toEqual({ id: 't1', part: 'p2', ctx: 'ctx' });
  });

  it('validates the body and query before the handler: validation_failed lists every problem', async () => {
    let calls = 0;
    const route = defineRoute({
      method: 'post',
      path: '/playbooks',
      operationId: 'createPlaybook',
      summary: 'Create',
      tag: 'Playbooks',
      body: playbookCreateSchema,
      query: listQuerySchema,
      success: { status: 201, schema: 'Playbook', description: 'The new playbook.' },
      handler: ({ res, query }, _ctx: string) => {
        calls += 1;
        res.status(201).json({ limit: query.limit });
      },
    });
    expect(route.body).toBe('PlaybookCreate');
    const refused = await request(appWith(route)).post('/playbooks?limit=0').send({ steps: 'no' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('validation_failed');
    expect(refused.body.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['limit', 'name', 'steps']),
    );
    expect(calls).toBe(0);
    const valid = { name: 'P' };
    const accepted = await request(appWith(route)).post('/playbooks?limit=5').send(valid);
    expect([accepted.status, accepted.body]).toEqual([201, { limit: 5 }]);
  });

  it('refuses a body schema the document has no component for', () => {
    expect(() =>
      defineRoute({
        method: 'post',
        path: '/x',
        operationId: 'x',
        summary: 'x',
        tag: 'Meta',
        body: { type: 'object' } as const,
        success: { status: 204, description: 'x' },
        handler: () => {
          throw new ApiError(500, 'internal_error', 'unreachable');
        },
      }),
    ).toThrow(/not a component/);
  });
});
