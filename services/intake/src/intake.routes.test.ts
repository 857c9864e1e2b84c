import { generateIntakeKey, newId } from '@leadhook/db';
import { randomPhone, useHarness, validLead } from '@leadhook/testkit';
import request from 'supertest';
import { redactIntakeUrl } from './app.js';
import { withErrorParam } from './intake.routes.js';
import { countRows, createHarness, FORM_HEADERS } from './testing/harness.js';

const h = useHarness(() => createHarness());

function formBody(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) params.append(name, String(value));
  return params.toString();
}

describe('transport', () => {
  it('answers 415 to anything but JSON and form bodies', async () => {
    const source = await h.makeSource();
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const res = await h.post(source, 'x=1', { 'Content-Type': type });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        status: 'rejected',
        errors: [{ field: null, code: 'unsupported_media_type', message: expect.any(String) }],
      });
    }
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(0);
  });

  it('accepts JSON with a charset parameter', async () => {
    const source = await h.makeSource();
    const res = await h.post(source, JSON.stringify(validLead()), {
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(res.status).toBe(201);
  });

  it('answers 413 over the body limit, for JSON and forms', async () => {
    const source = await h.makeSource();
    const big = validLead({ note: 'x'.repeat(70_000) });
    const json = await h.post(source, big);
    expect(json.status).toBe(413);
    expect(json.body.errors[0].code).toBe('body_too_large');
    const form = await h.post(source, formBody(big), FORM_HEADERS);
    expect(form.status).toBe(413);
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(0);
  });

  it.each([
    ['unparseable JSON', '{"first_name": "Jane",'],
    ['an array', '[{"first_name":"Jane"}]'],
    ['a string', '"lead"'],
    ['null', 'null'],
  ])('answers 400 malformed_body for %s', async (_what, text) => {
    const source = await h.makeSource();
    const res = await h.post(source, text, { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'rejected',
      errors: [{ field: null, code: 'malformed_body', message: expect.any(String) }],
    });
  });
});

describe('not found', () => {
  it('answers one byte-identical 404 for every reason', async () => {
    const { active, paused, deleted, rotated } = await h.makeDeadSources();
    const other = await h.makeSource();

    const paths = [
      `/marketing_sources/${newId('account')}/${active.key}`, // unknown account
      `/marketing_sources/${active.accountId}/${generateIntakeKey()}`, // unknown key
      `/marketing_sources/${other.accountId}/${active.key}`, // key of another account
      `/marketing_sources/${active.accountId}/x`, // implausible key
      paused.path,
      deleted.path,
      rotated.path,
    ];
    const bodies = new Set<string>();
    for (const path of paths) {
      const res = await request(h.app).post(path).send(validLead());
      expect(res.status).toBe(404);
      bodies.add(res.text);
    }
    for (const path of ['/', '/marketing_sources', `${active.path}/extra`, '/api/v1/leads']) {
      const res = await request(h.app).post(path).send(validLead());
      expect(res.status).toBe(404);
      bodies.add(res.text);
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]!)).toMatchObject({
      status: 'rejected',
      errors: [{ field: null, code: 'not_found' }],
    });
    // Nothing is recorded for a URL that does not resolve to an active source.
    for (const source of [paused, deleted, rotated]) {
      expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(0);
    }
    // The source still works at its own URL.
    expect((await h.post(active, validLead())).status).toBe(201);
  });
});

describe('browsers', () => {
  it('answers CORS preflights from any origin and exposes the headers a seller reads', async () => {
    const source = await h.makeSource();
    const preflight = await request(h.app)
      .options(source.path)
      .set('Origin', 'https://forms.seller.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, idempotency-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type, idempotency-key');

    const post = await h.post(source, validLead(), { Origin: 'https://another.example' });
    expect(post.status).toBe(201);
    expect(post.headers['access-control-allow-origin']).toBe('*');
    expect(post.headers['access-control-expose-headers']).toContain('Idempotent-Replayed');
  });

  it('redirects form posts to redirect_url with 303, and rejected ones with ?error=', async () => {
    const source = await h.makeSource({ redirectUrl: 'https://seller.example/thanks?campaign=7' });
    const phone = randomPhone().national;
    const accepted = await h.post(source, formBody(validLead({ phone })), FORM_HEADERS);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.location).toBe('https://seller.example/thanks?campaign=7');
    const duplicate = await h.post(source, formBody(validLead({ phone })), FORM_HEADERS);
    expect(duplicate.status).toBe(303);
    expect(duplicate.headers.location).toBe('https://seller.example/thanks?campaign=7');

    const rejected = await h.post(
      source,
      formBody(validLead({ email: 'nope', phone: '1' })),
      FORM_HEADERS,
    );
    expect(rejected.status).toBe(303);
    expect(rejected.headers.location).toBe(
      'https://seller.example/thanks?campaign=7&error=invalid',
    );
    expect(
      await countRows(h.pool, 'submissions', "source_id = $1 AND result = 'rejected'", [
        source.sourceId,
      ]),
    ).toBe(1);

    // JSON always gets JSON.
    const json = await h.post(source, validLead());
    expect(json.status).toBe(201);
    expect(json.body.status).toBe('accepted');
    const jsonRejected = await h.post(source, {});
    expect(jsonRejected.status).toBe(422);
  });

  it('answers JSON to form posts when the source has no redirect_url', async () => {
    const source = await h.makeSource();
    const res = await h.post(source, formBody({ first_name: 'Jane' }), FORM_HEADERS);
    expect(res.status).toBe(422);
    expect(res.body.errors.length).toBe(15);
  });

  it('appends error to a redirect URL with or without a query', () => {
    expect(withErrorParam('https://s.example/t', 'required')).toBe(
      'https://s.example/t?error=required',
    );
    expect(withErrorParam('https://s.example/t?a=1#top', 'invalid')).toBe(
      'https://s.example/t?a=1&error=invalid#top',
    );
  });
});

describe('consent evidence', () => {
  it('takes the IP from X-Forwarded-For only when trust proxy is on', async () => {
    const source = await h.makeSource();
    const untrusted = await h.post(source, validLead(), { 'X-Forwarded-For': '203.0.113.9' });
    const trusting = h.buildApp({ options: { trustProxy: true } });
    const trusted = await request(trusting)
      .post(source.path)
      .set('X-Forwarded-For', '203.0.113.9')
      .send(validLead());
    const ipOf = async (leadId: string) =>
      (await h.pool.query('SELECT consent_ip FROM leads WHERE id = $1', [leadId])).rows[0]
        ?.consent_ip;
    expect(await ipOf(untrusted.body.lead_id)).not.toBe('203.0.113.9');
    expect(await ipOf(trusted.body.lead_id)).toBe('203.0.113.9');
  });
});

describe('logs', () => {
  it('never contain the source key, the phone, the email or the body', async () => {
    const source = await h.makeSource();
    const phone = randomPhone();
    h.logLines.length = 0;
    await h.post(
      source,
      validLead({
        phone: phone.national,
        email: 'secret.person@example.org',
        note: 'body-marker',
      }),
    );
    await h.post(source, { email: 'secret.person@example.org' });
    await h.post(source, '{"phone": "5', { 'Content-Type': 'application/json' });
    const text = h.logLines.join('');
    expect(h.logLines.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain(`/marketing_sources/${source.accountId}/[redacted]`);
    for (const secret of [
      source.key,
      phone.e164,
      phone.national,
      phone.e164.slice(2),
      'secret.person',
      'body-marker',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('masks the key in any intake path', () => {
    expect(redactIntakeUrl('/marketing_sources/acc_1/SeCrEt')).toBe(
      '/marketing_sources/acc_1/[redacted]',
    );
    expect(redactIntakeUrl('/marketing_sources/acc_1/SeCrEt/x')).toBe(
      '/marketing_sources/acc_1/[redacted]/[redacted]',
    );
    expect(redactIntakeUrl('/healthz')).toBe('/healthz');
    expect(redactIntakeUrl('/Marketing_Sources/acc_1/SeCrEt')).toBe(
      '/Marketing_Sources/acc_1/[redacted]',
    );
    expect(redactIntakeUrl('/marketing_source/acc_1/SeCrEt')).toBe(
      '/marketing_source/[redacted]/[redacted]',
    );
    expect(redactIntakeUrl('/marketing_sources/acc_1/SeCrEt?x=1')).toBe(
      '/marketing_sources/acc_1/[redacted]?[redacted]',
    );
  });

  it('never logs the key, whatever the case of the path', async () => {
    const source = await h.makeSource();
    const response = await request(h.app)
      .post(source.path.replace('/marketing_sources/', '/MARKETING_SOURCES/'))
      .send(validLead());
    expect(response.status).toBe(201);
    expect(h.logLines.join('')).not.toContain(source.key);
  });

  it('answers NUL in a field with 422, logging none of the lead', async () => {
    const source = await h.makeSource();
    const response = await h.post(
      source,
      validLead({ first_name: 'Ja\u0000ne', email: 'nul.probe@example.org' }),
    );
    expect(response.status).toBe(422);
    expect(response.body.errors).toContainEqual(
      expect.objectContaining({ field: 'first_name', code: 'invalid' }),
    );
    expect(h.logLines.join('')).not.toContain('nul.probe');
  });
});
