import { createLeadValidator, MAX_BODY_FIELDS } from '@leadhook/contracts';
import { IntakeService, responseOf } from '@leadhook/intake-core';
import { createLogger, createMetrics } from '@leadhook/observability';
import { liveJob } from '@leadhook/queue';
import { createRateLimiter } from '@leadhook/rate-limit';
import { randomPhone, validLead, waitFor } from '@leadhook/testkit';
import supertest from 'supertest';
import { createApp } from './app.js';
import { buildOpenApiDocument } from './openapi.js';
import { type Harness, PUBLIC_BASE_URL, startHarness } from './testing/harness.js';

let h: Harness;
/**
 * A post URL's way in, as intake's route calls it (IntakeService.submit, with the
 * account and key of the post URL): what a lead via the API is compared with.
 */
let viaPostUrl: IntakeService;

beforeAll(async () => {
  h = await startHarness();
  viaPostUrl = new IntakeService({
    pool: h.pool,
    queues: h.queues,
    limiter: createRateLimiter({
      redis: h.queues.redis,
      onRedisError: () => {},
      keyPrefix: 'test-source-leads',
      name: 'intake',
    }),
    validate: createLeadValidator(),
    logger: createLogger({ service: 'api-test', level: 'silent' }),
    defaultRateLimitPerSecond: 0,
    duplicateWindowDays: 30,
  });
});
afterAll(async () => {
  await h.close();
});

const leadsPath = (sourceId: string) => `/api/v1/marketing_sources/${sourceId}/leads`;

/** A source of a new owner, with its id and post URL's account and key. */
async function aSource(overrides: Record<string, unknown> = {}) {
  const owner = await h.owner();
  const sourceId = await h.newSource(owner, overrides);
  const source = await owner.api.get(`/api/v1/marketing_sources/${sourceId}`);
  const [, accountId = '', sourceKey = ''] =
    /\/marketing_sources\/([^/]+)\/([^/]+)$/.exec(source.body.post_url) ?? [];
  return { owner, sourceId, accountId, sourceKey };
}

const evidence = { ip: '203.0.113.7', userAgent: 'seller/1.0', receivedAt: new Date() };

/** The stored lead without what differs between two leads (ids, phone, times, request). */
async function storedShape(leadId: string) {
  const lead = await h.prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
  const {
    id: _id,
    phone: _phone,
    fields,
    consentIp: _ip,
    consentUserAgent: _ua,
    receivedAt: _at,
    createdAt: _created,
    updatedAt: _updated,
    ...rest
  } = lead;
  const { phone: _fieldPhone, ...otherFields } = fields as Record<string, unknown>;
  const submissions = await h.prisma.submission.findMany({
    where: { leadId },
    select: { result: true, sourceId: true, accountId: true },
  });
  const outbox = await h.prisma.$queryRaw<{ topic: string }[]>`
    SELECT topic FROM outbox WHERE payload->>'lead_id' = ${leadId}`;
  return { ...rest, fields: otherFields, submissions, outbox };
}

async function rejectedCount(sourceId: string): Promise<number> {
  return h.prisma.submission.count({ where: { sourceId, result: 'rejected' } });
}

describe('POST /marketing_sources/{id}/leads', () => {
  it('stores, tags and enrolls the lead exactly as a post to the post URL does', async () => {
    const { owner, sourceId, accountId, sourceKey } = await aSource();
    const body = validLead({ extra_campaign: 'spring', external_id: 'crm-41' });

    const res = await owner.api
      .post(leadsPath(sourceId))
      .set('user-agent', 'automation/2')
      .send(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ status: 'accepted', lead_id: expect.stringMatching(/^lead_/) });
    const apiLead: string = res.body.lead_id;

    const posted = await viaPostUrl.submit({
      accountId,
      sourceKey,
      body: { ...body, phone: randomPhone().national },
      idempotencyKey: null,
      evidence,
    });
    expect(posted.kind).toBe('accepted');
    const postedLead = posted.kind === 'accepted' ? posted.leadId : '';

    const shape = await storedShape(apiLead);
    expect(shape).toEqual(await storedShape(postedLead));
    expect(shape).toEqual(
      expect.objectContaining({
        sourceId,
        accountId,
        playbookId: owner.playbookId,
        sourceName: 'Acme Leads',
        externalId: 'crm-41',
        extra: { extra_campaign: 'spring' },
        submissions: [{ result: 'accepted', sourceId, accountId }],
        outbox: [{ topic: 'enrollment' }],
      }),
    );
    // Announced on the enrollment queue at once, as intake announces it.
    const job = await waitFor(() =>
      liveJob(h.queues.get('enrollment'), 'enrollment', { lead_id: apiLead }),
    );
    expect(job.data).toEqual({ lead_id: apiLead });

    // The lead as the API shows it, with the request's evidence.
    const read = await owner.api.get(`/api/v1/leads/${apiLead}`);
    expect(read.status).toBe(200);
    expect(read.body.marketing_source).toEqual({ id: sourceId, name: 'Acme Leads' });
    expect(read.body.consent).toEqual(
      expect.objectContaining({
        tcpa_opt_in_token: body.tcpa_opt_in_token,
        user_agent: 'automation/2',
      }),
    );
  });

  it('rejects a bad lead with the very answer intake gives, and counts it in the source stats', async () => {
    const { owner, sourceId, accountId, sourceKey } = await aSource();
    const bad = validLead({ email: 'not-an-email', phone: '12', date_of_birth: undefined });
    const res = await owner.api.post(leadsPath(sourceId)).send(bad);
    expect(res.status).toBe(422);

    const posted = await viaPostUrl.submit({
      accountId,
      sourceKey,
      body: bad,
      idempotencyKey: null,
      evidence,
    });
    if (posted.kind !== 'rejected') throw new Error(`expected rejected, got ${posted.kind}`);
    expect(res.body).toEqual(responseOf(posted).body);
    expect(res.body.status).toBe('rejected');
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ['date_of_birth', 'email', 'phone'].sort(),
    );

    expect(await rejectedCount(sourceId)).toBe(2);
    const stats = await owner.api.get(`/api/v1/marketing_sources/${sourceId}/stats`);
    expect(stats.body.rejected.total).toBe(2);
  });

  it('answers a phone already among the account’s recent leads as a duplicate', async () => {
    const { owner, sourceId, accountId, sourceKey } = await aSource();
    const phone = randomPhone().national;
    const first = await viaPostUrl.submit({
      accountId,
      sourceKey,
      body: validLead({ phone }),
      idempotencyKey: null,
      evidence,
    });
    const firstLead = first.kind === 'accepted' ? first.leadId : 'not accepted';

    const res = await owner.api.post(leadsPath(sourceId)).send(validLead({ phone }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'duplicate', lead_id: firstLead });
    expect(await h.prisma.lead.count({ where: { sourceId } })).toBe(1);
  });

  it('replays the first answer for the same Idempotency-Key and stores one lead', async () => {
    const { owner, sourceId } = await aSource();
    const body = validLead();
    const send = (key: string, lead: object) =>
      owner.api.post(leadsPath(sourceId)).set('idempotency-key', key).send(lead);

    const first = await send('order-7781', body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send('order-7781', body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await h.prisma.lead.count({ where: { sourceId } })).toBe(1);

    const other = await send('order-7781', validLead());
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      status: 'rejected',
      errors: [
        {
          field: 'Idempotency-Key',
          code: 'idempotency_key_reused',
          message: expect.any(String),
        },
      ],
    });
    expect(await h.prisma.lead.count({ where: { sourceId } })).toBe(1);

    const invalid = await send('bad key with spaces', body);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_idempotency_key');
  });

  it('takes only a recognised consent certificate for a source that requires one', async () => {
    const { owner, sourceId } = await aSource({ consent_required: 'recognised' });
    const res = await owner.api
      .post(leadsPath(sourceId))
      .send(validLead({ tcpa_opt_in_token: 'checkbox-ticked' }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'tcpa_opt_in_token', code: 'consent_unrecognised', message: expect.any(String) },
    ]);
    expect(await rejectedCount(sourceId)).toBe(1);

    const certificate = `https://cert.trustedform.com/${'0123456789abcdef'.repeat(2)}${'0'.repeat(8)}`;
    const ok = await owner.api
      .post(leadsPath(sourceId))
      .send(validLead({ tcpa_opt_in_token: certificate }));
    expect(ok.status).toBe(201);
  });

  it("answers 404 for another account's source, an unknown one and a paused one", async () => {
    const { sourceId } = await aSource();
    const stranger = await h.owner();
    const res = await stranger.api.post(leadsPath(sourceId)).send(validLead());
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const unknown = await stranger.api
      .post(leadsPath('src_00000000000000000000000000'))
      .send(validLead());
    expect(unknown.status).toBe(404);

    const paused = await aSource({ status: 'paused' });
    const answer = await paused.owner.api.post(leadsPath(paused.sourceId)).send(validLead());
    expect(answer.status).toBe(404);
    expect(await h.prisma.submission.count({ where: { sourceId } })).toBe(0);
    expect(await h.prisma.submission.count({ where: { sourceId: paused.sourceId } })).toBe(0);
  });

  it("counts against the source's own rate limit, as its post URL's leads do", async () => {
    const { owner, sourceId } = await aSource({ rate_limit: 1 });
    const statuses: number[] = [];
    let limited: { headers: Record<string, string>; body: { error: { code: string } } } | undefined;
    // A burst of twice the rate passes; 20 requests would need over 18 s to all pass.
    for (let i = 0; i < 20 && !limited; i++) {
      const res = await owner.api.post(leadsPath(sourceId)).send(validLead());
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, 2)).toEqual([201, 201]);
    expect(limited?.body.error.code).toBe('rate_limited');
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await h.prisma.lead.count({ where: { sourceId } })).toBe(statuses.length - 1);
  });

  it('needs the API key', async () => {
    const { sourceId } = await aSource();
    const res = await h.anonymous.post(leadsPath(sourceId)).send(validLead());
    expect(res.status).toBe(401);
    expect(await h.prisma.submission.count({ where: { sourceId } })).toBe(0);
  });

  it('reads at most as many fields as intake does: more is 413 too_many_fields', async () => {
    const { owner, sourceId } = await aSource();
    const extras = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`extra_${i}`, 'x']));
    const over = await owner.api.post(leadsPath(sourceId)).send(validLead(extras(MAX_BODY_FIELDS)));
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('too_many_fields');
    // Over the extra-field limit but within what is read: intake's 422, field by field.
    const some = await owner.api.post(leadsPath(sourceId)).send(validLead(extras(55)));
    expect(some.status).toBe(422);
    expect(some.body.errors[0].code).toBe('too_many_fields');
    expect(await rejectedCount(sourceId)).toBe(1);
  });

  it('takes JSON only: a form body is 415, as for every API route', async () => {
    const { owner, sourceId } = await aSource();
    const res = await owner.api
      .post(leadsPath(sourceId))
      .type('form')
      .send(new URLSearchParams(validLead() as Record<string, string>).toString());
    expect(res.status).toBe(415);
    expect(await h.prisma.submission.count({ where: { sourceId } })).toBe(0);
  });

  it('logs what became of the lead (ids and codes), never its phone or email', async () => {
    const { owner, sourceId } = await aSource();
    const lines: string[] = [];
    const app = createApp({
      prisma: h.prisma,
      pool: h.pool,
      logger: createLogger({
        service: 'api-test',
        level: 'info',
        destination: { write: (line: string) => lines.push(line) },
      }),
      metrics: createMetrics('api-test'),
      queues: h.queues,
      options: { publicBaseUrl: PUBLIC_BASE_URL },
    });
    const phone = randomPhone();
    const post = (body: object) =>
      supertest(app)
        .post(leadsPath(sourceId))
        .set('authorization', `Bearer ${owner.apiKey}`)
        .send(body);
    const accepted = await post(validLead({ phone: phone.national, email: 'jo@example.org' }));
    expect(accepted.status).toBe(201);
    const rejected = await post(validLead({ email: 'jo@@example.org' }));
    expect(rejected.status).toBe(422);

    // The requests' lines (the app also says once that this test built no dashboard).
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request completed');
    expect(logged).toEqual([
      expect.objectContaining({
        result: 'accepted',
        source_id: sourceId,
        lead_id: accepted.body.lead_id,
      }),
      expect.objectContaining({
        result: 'rejected',
        source_id: sourceId,
        reasons: ['email:invalid'],
      }),
    ]);
    const text = lines.join('');
    expect(text).not.toContain(phone.e164.slice(2));
    expect(text).not.toContain('jo@');
  });
});

describe('the OpenAPI document of POST /marketing_sources/{id}/leads', () => {
  it("publishes the lead body and intake's answers, with the Idempotency-Key header", () => {
    const doc = JSON.parse(
      JSON.stringify(buildOpenApiDocument({ intakeBaseUrl: 'https://intake.example.test' })),
    );
    const op = doc.paths['/marketing_sources/{id}/leads'].post;
    expect(op.requestBody.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/LeadSubmission' } },
    });
    const schemaOf = (status: string) => op.responses[status]?.content['application/json'].schema;
    expect(schemaOf('201')).toEqual({ $ref: '#/components/schemas/IntakeAccepted' });
    expect(schemaOf('200')).toEqual({ $ref: '#/components/schemas/IntakeDuplicate' });
    expect(schemaOf('422')).toEqual({ $ref: '#/components/schemas/IntakeRejected' });
    expect(schemaOf('409')).toEqual({ $ref: '#/components/schemas/IntakeRejected' });
    expect(schemaOf('401')).toEqual({ $ref: '#/components/schemas/Error' });
    expect(schemaOf('404')).toEqual({ $ref: '#/components/schemas/Error' });
    expect(Object.keys(op.responses['201'].headers)).toEqual(['Idempotent-Replayed']);
    expect(op.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'header:Idempotency-Key',
    ]);
  });
});
