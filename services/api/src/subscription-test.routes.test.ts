import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { subscriptionTestResultSchema } from '@leadhook/contracts';
import { Subscriber, useHarness } from '@leadhook/testkit';
import { type AuthedAgent, playbookBody, startHarness } from './testing/harness.js';
import { bodyValidator } from './validation.js';

const isTestResult = bodyValidator(subscriptionTestResultSchema);

const subscribers: Subscriber[] = [];
afterEach(async () => {
  await Promise.all(subscribers.splice(0).map((s) => s.close()));
});

/**
 * A real local subscriber (@leadhook/testkit) that answers `status` with `body`,
 * closed after the test.
 */
async function startSubscriber(answer: { status: number; body: string }): Promise<Subscriber> {
  const subscriber = await Subscriber.start((_req, res) => {
    res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
  });
  subscribers.push(subscriber);
  return subscriber;
}

/**
 * Standard Webhooks verification written here from the specification, not with
 * packages/webhooks: HMAC-SHA256 over `id.timestamp.body` keyed with the base64
 * part of the secret; the header holds space-separated `v1,<base64>` signatures.
 */
function verifies(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const content = `${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`;
  const expected = createHmac('sha256', key).update(content).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((candidate) => {
      const [version, signature] = candidate.split(',');
      if (version !== 'v1' || signature === undefined) return false;
      const given = Buffer.from(signature, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

const h = useHarness(() =>
  startHarness({ webhookAllowPrivateTargets: true, webhookTimeoutMs: 5_000 }),
);

async function subscribedTo(
  url: string,
): Promise<{ api: AuthedAgent; apiKey: string; id: string; secret: string; playbookId: string }> {
  const { api, apiKey, playbookId } = await h.owner();
  const created = await api
    .post(`/api/v1/playbooks/${playbookId}/subscriptions`)
    .send({ url, events: ['first_message_sent'] });
  expect(created.status).toBe(201);
  return { api, apiKey, id: created.body.id, secret: created.body.secret, playbookId };
}

describe('POST /subscriptions/{id}/test', () => {
  it('sends a signed test delivery now and answers what the subscriber answered', async () => {
    const subscriber = await startSubscriber({ status: 200, body: 'thanks' });
    const { api, id, secret, playbookId } = await subscribedTo(subscriber.url);
    const res = await api.post(`/api/v1/subscriptions/${id}/test`);
    expect(res.status).toBe(200);
    expect(isTestResult(res.body).ok).toBe(true);
    expect(res.body).toMatchObject({
      ok: true,
      status_code: 200,
      error: null,
      response_body: 'thanks',
    });
    expect(res.body.latency_ms).toBeGreaterThanOrEqual(0);

    expect(subscriber.received).toHaveLength(1);
    const [request] = subscriber.received;
    if (!request) throw new Error('no request received');
    expect(verifies(secret, request.headers, request.body)).toBe(true);
    // The check can fail: another secret, or a changed body, does not verify.
    expect(
      verifies('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', request.headers, request.body),
    ).toBe(false);
    expect(verifies(secret, request.headers, `${request.body} `)).toBe(false);

    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/leadhook/);
    const timestamp = Number(request.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({
      activity_type: 'event',
      activity_label: 'test',
      lead_id: null,
      lead_first_name: null,
      lead_email: null,
      lead_originators: [],
      data: {},
      playbook: { id: playbookId, name: playbookBody().name },
    });
    expect(payload.id).toMatch(/^act_test_[0-9a-z]{26}$/);
    expect(request.headers['webhook-id']).toBe(payload.id);
    // Nothing is stored for a test.
    expect(await h.prisma.delivery.count({ where: { subscriptionId: id } })).toBe(0);
  });

  it('reports a failing subscriber with ok false, its status and body (still a 200)', async () => {
    const subscriber = await startSubscriber({ status: 500, body: 'boom' });
    const { api, id } = await subscribedTo(subscriber.url);
    const res = await api.post(`/api/v1/subscriptions/${id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, status_code: 500, response_body: 'boom' });
    expect(res.body.error).toEqual(expect.stringContaining('500'));
    expect(subscriber.received).toHaveLength(1);
  });

  it('signs with both secrets during a rotation; each verifies', async () => {
    const subscriber = await startSubscriber({ status: 204, body: '' });
    const { api, id, secret: oldSecret } = await subscribedTo(subscriber.url);
    const rotated = await api.post(`/api/v1/subscriptions/${id}/rotate_secret`);
    const newSecret: string = rotated.body.secret;
    const res = await api.post(`/api/v1/subscriptions/${id}/test`);
    expect(res.body.ok).toBe(true);
    const [request] = subscriber.received;
    if (!request) throw new Error('no request received');
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(newSecret, request.headers, request.body)).toBe(true);
    expect(verifies(oldSecret, request.headers, request.body)).toBe(true);

    // Once the overlap is over, only the new secret signs.
    await h.prisma.subscription.update({
      where: { id },
      data: { previousSecretExpiresAt: new Date(Date.now() - 1000) },
    });
    await api.post(`/api/v1/subscriptions/${id}/test`);
    const later = subscriber.received[1];
    if (!later) throw new Error('no second request received');
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(newSecret, later.headers, later.body)).toBe(true);
    expect(verifies(oldSecret, later.headers, later.body)).toBe(false);
  });

  it('does not reach a private target when the operator does not allow it', async () => {
    const subscriber = await startSubscriber({ status: 200, body: 'ok' });
    const { apiKey, id } = await subscribedTo(subscriber.url);
    const strict = h.withOptions({ webhookAllowPrivateTargets: false }).as(apiKey);
    const res = await strict.post(`/api/v1/subscriptions/${id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, status_code: null });
    expect(res.body.error).toMatch(/refused/);
    expect(subscriber.received).toHaveLength(0);
  });
});
