import { randomBytes } from 'node:crypto';
import { createPool, createPrisma, type Pool, type PrismaClient } from '@leadhook/db';
import { createLogger, createMetrics } from '@leadhook/observability';
import { QueueSet } from '@leadhook/queue';
import { anAccount, TEST_REDIS_URL, validLead, waitFor } from '@leadhook/testkit';
import type { Express } from 'express';
import request from 'supertest';
import { createApp, createInternalApp } from './app.js';
import { API_ROUTES } from './routes.js';
import { playbookBody, sourceBody } from './testing/harness.js';
import { ReplicatedPostgres } from './testing/replicated-postgres.js';

// DATABASE_READ_URL (docs/operations.md, "Scaling"): the heavy reads go to a
// streaming replica, every write and every read that must see its own write to
// the primary. A replica whose replay is paused is a replica lagging without
// bound: what it serves is what lags, what stays fresh is the primary's.

describe('the routes the replica serves', () => {
  it('are the heavy reads, each GET with its reason written down', () => {
    const onReplica = API_ROUTES.filter((r) => r.replicaRead !== undefined);
    expect(onReplica.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort()).toEqual(
      [
        'GET /leads',
        'GET /marketing_sources',
        'GET /marketing_sources/{id}/stats',
        'GET /playbooks',
        'GET /stats/sources',
        'GET /subscriptions/{id}/deliveries',
      ].sort(),
    );
    for (const route of onReplica) expect(route.replicaRead).toMatch(/\w{5,}/);
  });
});

describe('the api with DATABASE_READ_URL on a streaming replica', () => {
  let cluster: ReplicatedPostgres | undefined;
  let prisma: PrismaClient;
  let readPrisma: PrismaClient;
  let pool: Pool;
  let queues: QueueSet;
  let app: Express;
  let internal: Express;
  let api: (verb: 'get' | 'post' | 'patch', path: string) => request.Test;

  beforeAll(async () => {
    cluster = await ReplicatedPostgres.start();
    prisma = createPrisma({ databaseUrl: cluster.primaryUrl, poolMax: 2 });
    readPrisma = createPrisma({ databaseUrl: cluster.replicaUrl, poolMax: 2 });
    pool = createPool({ databaseUrl: cluster.primaryUrl, max: 2 });
    queues = new QueueSet({
      redisUrl: TEST_REDIS_URL,
      prefix: `test-replica-${randomBytes(4).toString('hex')}`,
    });
    const deps = {
      prisma,
      readPrisma,
      pool,
      logger: createLogger({ service: 'api-test', level: 'silent' }),
      metrics: createMetrics('api-test'),
      queues,
      options: {
        publicBaseUrl: 'https://leads.example.test',
        rateLimitPerKey: 0,
        rateLimitPerAddress: 0,
      },
    };
    app = createApp(deps);
    internal = createInternalApp(deps);
    const { api_key: apiKey } = await anAccount(prisma, 'Replica account');
    api = (verb, path) =>
      request(app)[verb](`/api/v1${path}`).set('authorization', `Bearer ${apiKey}`);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([
      prisma?.$disconnect(),
      readPrisma?.$disconnect(),
      pool?.end(),
      queues?.get('enrollment').obliterate({ force: true }),
    ]);
    await queues?.close();
    await cluster?.stop();
  }, 60_000);

  const ids = (res: request.Response): string[] =>
    (res.body.data as { id: string }[]).map((item) => item.id);

  const acceptedOf = async (sourceId: string): Promise<number | undefined> => {
    const res = await api('get', '/stats/sources');
    expect(res.status).toBe(200);
    const row = (res.body.data as { id: string; accepted: number }[]).find(
      (s) => s.id === sourceId,
    );
    return row?.accepted;
  };

  it('serves the heavy reads from the replica, lagging while its replay is paused, and fresh reads and writes from the primary', async () => {
    const playbookId: string = (await api('post', '/playbooks').send(playbookBody())).body.id;
    const sourceId: string = (await api('post', '/marketing_sources').send(sourceBody(playbookId)))
      .body.id;
    // The replica streams the rows in: the list (the replica's) shows the source.
    await waitFor(async () => ids(await api('get', '/marketing_sources')).includes(sourceId), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });

    if (!cluster) throw new Error('no cluster');
    await cluster.onReplica('SELECT pg_wal_replay_pause()');
    await waitFor(
      async () =>
        (
          await cluster?.onReplica<{ s: string }>('SELECT pg_get_wal_replay_pause_state() AS s')
        )?.[0]?.s === 'paused',
      { timeoutMs: 30_000, intervalMs: 100 },
    );

    // Writes go to the primary whatever the replica's state.
    const lead = await api('post', `/marketing_sources/${sourceId}/leads`).send(validLead());
    expect(lead.status).toBe(201);
    const leadId: string = lead.body.lead_id;
    const newPlaybook = await api('post', '/playbooks').send(playbookBody({ name: 'Later' }));
    expect(newPlaybook.status).toBe(201);
    const newSource = await api('post', '/marketing_sources').send(
      sourceBody(playbookId, { name: 'Later source' }),
    );
    expect(newSource.status).toBe(201);
    const renamed = await api('patch', `/playbooks/${newPlaybook.body.id}`).send({
      name: 'Renamed',
    });
    expect(renamed.status).toBe(200);

    // Reads that must see their own write: by id, on the primary.
    expect((await api('get', `/leads/${leadId}`)).status).toBe(200);
    const playbook = await api('get', `/playbooks/${newPlaybook.body.id}`);
    expect([playbook.status, playbook.body.name]).toEqual([200, 'Renamed']);
    expect((await api('get', `/marketing_sources/${newSource.body.id}`)).status).toBe(200);

    // The heavy reads are the replica's: none of those writes yet.
    expect(ids(await api('get', '/leads'))).not.toContain(leadId);
    expect(ids(await api('get', '/playbooks'))).not.toContain(newPlaybook.body.id);
    expect(ids(await api('get', '/marketing_sources'))).not.toContain(newSource.body.id);
    expect(await acceptedOf(sourceId)).toBe(0);
    const stats = await api('get', `/marketing_sources/${sourceId}/stats`);
    expect([stats.status, stats.body.accepted]).toEqual([200, 0]);
    // A resource the replica has not seen yet is not "not found": the primary is asked.
    const newStats = await api('get', `/marketing_sources/${newSource.body.id}/stats`);
    expect([newStats.status, newStats.body.accepted]).toEqual([200, 0]);
    const bySource = await api('get', `/leads?source_id=${newSource.body.id}`);
    expect([bySource.status, ids(bySource)]).toEqual([200, []]);
    // ...while what exists nowhere is still 404.
    expect((await api('get', '/marketing_sources/src_nothing/stats')).status).toBe(404);

    // Replay resumes: the lists catch up.
    await cluster.onReplica('SELECT pg_wal_replay_resume()');
    await waitFor(async () => ids(await api('get', '/leads')).includes(leadId), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(ids(await api('get', '/playbooks'))).toContain(newPlaybook.body.id);
    expect(ids(await api('get', '/marketing_sources'))).toContain(newSource.body.id);
    expect(await acceptedOf(sourceId)).toBe(1);
  }, 90_000);

  it('is ready only while the replica answers too, and names it when it does not', async () => {
    const ready = await request(internal).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ postgres: 'ok', postgres_replica: 'ok' });

    await cluster?.stopReplica();
    const down = await request(internal).get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body.checks).toMatchObject({ postgres: 'ok', postgres_replica: 'unavailable' });
    expect((await request(app).get('/readyz')).status).toBe(503);
    // The heavy reads are not put back on the primary: they answer 503 and are retried.
    expect((await api('get', '/leads')).status).toBe(503);
    expect((await api('get', '/playbooks')).status).toBe(503);
  }, 60_000);
});
