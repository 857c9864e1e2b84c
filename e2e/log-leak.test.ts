import { Subscriber } from '@leadhook/testkit';
import { leaksIn } from './leak-search.js';
import { createAccount, useStartedService, validLead, waitFor } from './support.js';

/**
 * "Logs … without secrets or personal data" (docs/operations.md, "Logs"), checked on the real
 * processes of `pnpm start` at LOG_LEVEL=debug: a whole flow (an account's API
 * key, a playbook whose SMS template prints the phone and email, a source's
 * intake key, a subscription's signing secret, leads by JSON and by form, steps,
 * webhooks with a failed first attempt, a STOP reply, rotations, and requests
 * that fail with those values in their URL or body), then every line any process
 * printed is searched for each of those values in every spelling we could think
 * of (leak-search.ts, tested on its own in leak-search.test.ts).
 */

const started = useStartedService(
  'leak',
  {
    CONTACT_HOURS: '00:00-24:00',
    LOG_LEVEL: 'debug',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms',
  },
  // Every line: a tail would drop the first requests' lines unsearched.
  { keepAllOutput: true },
);
let subscriber: Subscriber;
const received: { id: string; label: string; attempt: number }[] = [];
let apiKey: string;

/** Distinctive values: nothing else in the output can contain them by chance. */
const JSON_LEAD = validLead({
  first_name: 'Quillonia',
  last_name: 'Vexmoreland',
  email: 'zq7.leakprobe+json@leak-probe.example.com',
  phone: '(415) 555-0177',
  current_residence_address: '77 Zephyrleak Avenue',
  tcpa_opt_in_token: 'tok-leakprobe-8f3a91',
});
const FORM_LEAD = {
  ...JSON_LEAD,
  first_name: 'Brannoxia',
  last_name: 'Quistelbury',
  email: 'ZQ7.LeakProbe.Form@Leak-Probe.example.com',
  phone: '415.555.0178',
  current_residence_address: '78 Zephyrleak Avenue',
};
/** Only ever sent in bodies that are refused (422). */
const REFUSED_PHONE = '+1 415 555 0179';
const REFUSED_EMAIL = 'zq7.refused@leak-probe.example.com';

const secrets = new Map<string, string>();
const personal: { label: string; value: string }[] = [
  { label: 'json first_name', value: JSON_LEAD.first_name },
  { label: 'json last_name', value: JSON_LEAD.last_name },
  { label: 'form first_name', value: FORM_LEAD.first_name },
  { label: 'form last_name', value: FORM_LEAD.last_name },
  { label: 'street address', value: 'Zephyrleak' },
  { label: 'tcpa token', value: JSON_LEAD.tcpa_opt_in_token },
];
const targets = {
  secrets,
  personal,
  emails: [JSON_LEAD.email, FORM_LEAD.email, REFUSED_EMAIL],
  phones: [JSON_LEAD.phone, FORM_LEAD.phone, REFUSED_PHONE],
};

type Init = { method?: string; body?: unknown; key?: string };
async function api(path: string, init: Init = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${started.service.ports.API_PORT}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.key ?? apiKey}`,
      'content-type': 'application/json',
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}
async function apiJson<T>(path: string, init: Init = {}, status = 200): Promise<T> {
  const response = await api(path, init);
  const body = await response.text();
  expect([path, response.status]).toEqual([path, status]);
  return JSON.parse(body) as T;
}

beforeAll(async () => {
  // The subscriber fails each delivery's first attempt, so retries and their errors are logged too.
  const attempts = new Map<string, number>();
  subscriber = await Subscriber.start((req, res) => {
    const body = JSON.parse(req.body) as { activity_label: string };
    const id = String(req.headers['webhook-id']);
    const attempt = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, attempt);
    received.push({ id, label: body.activity_label, attempt });
    res.statusCode = attempt === 1 && !id.startsWith('act_test') ? 500 : 204;
    res.end(res.statusCode === 500 ? 'subscriber says no' : undefined);
  });
  ({ api_key: apiKey } = await createAccount(started.db.url, 'Leak probe'));
  secrets.set('api key', apiKey);
  secrets.set('subscriber url', `http://127.0.0.1:${subscriber.port}/hooks/zq7-url-token-5e1d`);
}, 60_000);

afterAll(async () => {
  await subscriber?.close();
});

describe('process output', () => {
  it('carries none of the flow’s secrets or personal data, at LOG_LEVEL=debug', async () => {
    // Playbook: the SMS template prints the phone and the email into the message.
    const playbook = await apiJson<{ id: string }>(
      '/playbooks',
      {
        method: 'POST',
        body: {
          name: 'Leak probe',
          steps: [
            {
              type: 'sms',
              delay_seconds: 0,
              template: 'Hi {{first_name}} {{last_name}}, we have {{phone}} and {{email}}.',
            },
            // Long enough for the STOP below to come first, most of the time; the
            // test does not depend on it (it waits for whichever outcome each lead reaches).
            { type: 'call', delay_seconds: 4, template: 'Call {{first_name}} at {{phone}}.' },
          ],
        },
      },
      201,
    );
    const source = await apiJson<{ id: string; post_url: string }>(
      '/marketing_sources',
      {
        method: 'POST',
        body: { name: 'Leak vendor', source_type: 'vendor', playbook_id: playbook.id },
      },
      201,
    );
    const intakeKey = source.post_url.split('/').pop() ?? '';
    expect(intakeKey.length).toBeGreaterThanOrEqual(20);
    secrets.set('intake key', intakeKey);
    const subscription = await apiJson<{ id: string; secret: string }>(
      `/playbooks/${playbook.id}/subscriptions`,
      {
        method: 'POST',
        body: { url: secrets.get('subscriber url'), events: ['*'], outcomes: ['*'] },
      },
      201,
    );
    secrets.set('webhook secret', subscription.secret);

    // Leads: one by JSON (with an Idempotency-Key), one by form, and refused ones.
    const byJson = await fetch(source.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'zq7-idem-key-1' },
      body: JSON.stringify(JSON_LEAD),
    });
    expect(byJson.status).toBe(201);
    const jsonLeadId = ((await byJson.json()) as { lead_id: string }).lead_id;
    const byForm = await fetch(source.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(FORM_LEAD).toString(),
    });
    expect(byForm.status).toBe(201);
    const formLeadId = ((await byForm.json()) as { lead_id: string }).lead_id;
    const duplicate = await fetch(source.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(JSON_LEAD),
    });
    expect(duplicate.status).toBe(200);
    const refused = await fetch(source.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...JSON_LEAD, phone: REFUSED_PHONE, email: 'not an email' }),
    });
    expect(refused.status).toBe(422);
    const refusedForm = await fetch(source.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ phone: REFUSED_PHONE, email: REFUSED_EMAIL }).toString(),
    });
    expect(refusedForm.status).toBe(422);
    const malformed = await fetch(source.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"phone":"${REFUSED_PHONE}","email":"${REFUSED_EMAIL}"`,
    });
    expect(malformed.status).toBe(400);
    const wrongKey = await fetch(`${source.post_url}x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(JSON_LEAD),
    });
    expect(wrongKey.status).toBe(404);

    // The JSON lead replies STOP once its first message is out; the form lead runs to its end.
    await waitFor(async () => {
      const detail = await apiJson<{ activities: { activity_label: string }[] }>(
        `/leads/${jsonLeadId}`,
      );
      return detail.activities.some((a) => a.activity_label === 'first_message_sent')
        ? true
        : undefined;
    });
    await apiJson(
      `/leads/${jsonLeadId}/activities`,
      {
        method: 'POST',
        body: {
          activity_type: 'event',
          activity_label: 'message_received',
          data: { body: 'STOP' },
        },
      },
      201,
    );
    const outcomes = await waitFor(async () => {
      const leads = await Promise.all(
        [jsonLeadId, formLeadId].map((id) => apiJson<{ outcome: string | null }>(`/leads/${id}`)),
      );
      const reached = leads.map((l) => l.outcome);
      return reached.every((o) => o !== null) ? reached : undefined;
    }, 60_000);
    expect(outcomes[1]).toBe('unreachable');
    // Webhooks: each lead's outcome delivered, after a failed first attempt.
    await waitFor(
      async () =>
        outcomes.every((label) => received.some((r) => r.label === label && r.attempt === 2))
          ? true
          : undefined,
      90_000,
    );

    // Management calls, failing ones with the personal values in them.
    await apiJson('/account', { key: `${apiKey}x` }, 401);
    await apiJson('/account', { key: apiKey.slice(0, -1) }, 401);
    await apiJson(
      '/marketing_sources',
      { method: 'POST', body: { name: REFUSED_PHONE, source_type: REFUSED_EMAIL } },
      422,
    );
    await apiJson(
      `/leads/${formLeadId}/activities`,
      {
        method: 'POST',
        body: {
          activity_type: 'event',
          activity_label: REFUSED_EMAIL,
          data: { phone: REFUSED_PHONE },
        },
      },
      422,
    );
    await apiJson(
      `/subscriptions/${subscription.id}`,
      { method: 'PATCH', body: { url: `ftp://${REFUSED_EMAIL}/${REFUSED_PHONE}` } },
      422,
    );
    // An unknown source is a 404, with the phone in the URL's query.
    await apiJson(`/leads?source_id=${encodeURIComponent(REFUSED_PHONE)}`, {}, 404);
    await apiJson(`/leads/${encodeURIComponent(REFUSED_EMAIL)}`, {}, 404);
    await apiJson(`/leads?limit=5`);
    await apiJson(`/leads/${formLeadId}`);
    await apiJson(`/marketing_sources/${source.id}/integration`);
    await apiJson(`/subscriptions/${subscription.id}/deliveries`);
    const test = await apiJson<{ ok: boolean }>(
      `/subscriptions/${subscription.id}/test`,
      { method: 'POST' },
      200,
    );
    expect(test.ok).toBe(true);
    // Rotations: the new secrets are secrets too.
    const rotatedSecret = await apiJson<{ secret: string }>(
      `/subscriptions/${subscription.id}/rotate_secret`,
      { method: 'POST' },
    );
    secrets.set('rotated webhook secret', rotatedSecret.secret);
    const rotatedSource = await apiJson<{ post_url: string }>(
      `/marketing_sources/${source.id}/rotate_url`,
      { method: 'POST' },
    );
    secrets.set('rotated intake key', rotatedSource.post_url.split('/').pop() ?? '');
    const oldUrl = await fetch(source.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(JSON_LEAD),
    });
    expect(oldUrl.status).toBe(404);
    const rotatedKey = await apiJson<{ api_key: string }>('/account/api_keys/rotate', {
      method: 'POST',
    });
    secrets.set('rotated api key', rotatedKey.api_key);
    await apiJson('/account', { key: apiKey }, 401);

    // Drain: shutdown logs count too.
    started.service.process.kill('SIGTERM');
    expect(await started.service.exited).toBe(0);

    const output = started.service.output();
    // The flow really ran and was logged, from the processes' first lines on: the
    // search had everything to search.
    expect(output.split('\n').length).toBeGreaterThan(50);
    for (const msg of [
      'intake listening',
      'api listening',
      'worker started',
      'request completed',
      'playbook step',
      'delivery attempt',
    ]) {
      expect(output).toContain(`"msg":"${msg}"`);
    }
    expect(output).toContain(formLeadId);
    // On failure, the offending lines are shown with what was found in them.
    const leaking = output
      .split('\n')
      .map((line) => ({ line, leaks: leaksIn(line, targets) }))
      .filter((l) => l.leaks.length > 0);
    expect(leaking).toEqual([]);
    expect(leaksIn(output, targets)).toEqual([]);
  }, 180_000);
});
