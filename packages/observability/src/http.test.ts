import express from 'express';
import { Registry } from 'prom-client';
import request from 'supertest';
import { healthRoutes, publicHealthRoutes } from './http.js';

const up = () => Promise.resolve();
const down = () => Promise.reject(new Error('ECONNREFUSED'));

function app(options: Parameters<typeof healthRoutes>[0]) {
  return express().use(healthRoutes(options));
}

describe('/readyz', () => {
  it('answers 200 when every check passes', async () => {
    const res = await request(
      app({ checks: { postgres: up, redis: up }, registry: new Registry() }),
    )
      .get('/readyz')
      .expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('answers 503 naming a required dependency that is away', async () => {
    const res = await request(
      app({ checks: { postgres: up, redis: down }, registry: new Registry() }),
    )
      .get('/readyz')
      .expect(503);
    expect(res.body).toEqual({
      status: 'unavailable',
      checks: { postgres: 'ok', redis: 'unavailable' },
    });
  });

  it('stays 200 when only an optional dependency is away, and says so', async () => {
    const options = { checks: { postgres: up }, optionalChecks: { redis: down } };
    const res = await request(app({ ...options, registry: new Registry() }))
      .get('/readyz')
      .expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'unavailable' } });
    await request(
      app({ checks: { postgres: down }, optionalChecks: { redis: up }, registry: new Registry() }),
    )
      .get('/readyz')
      .expect(503);
  });
});

describe('publicHealthRoutes: what a public port answers', () => {
  const publicApp = (options: Parameters<typeof publicHealthRoutes>[0]) =>
    express().use(publicHealthRoutes(options));

  it('gives /readyz its status and nothing that names a dependency', async () => {
    const ready = await request(
      publicApp({ checks: { postgres: up }, optionalChecks: { redis: down } }),
    )
      .get('/readyz')
      .expect(200);
    expect(ready.body).toEqual({ status: 'ok' });
    const unavailable = await request(publicApp({ checks: { postgres: down } }))
      .get('/readyz')
      .expect(503);
    expect(unavailable.body).toEqual({ status: 'unavailable' });
    expect(unavailable.text).not.toMatch(/postgres/);
  });

  it('answers /healthz and has no /metrics', async () => {
    const app = publicApp({ checks: { postgres: up } });
    expect((await request(app).get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
    await request(app).get('/metrics').expect(404);
  });
});
