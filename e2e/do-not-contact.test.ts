import { Subscriber } from '@leadhook/testkit';
import {
  type ApiClient,
  apiClient,
  createAccount,
  createPlaybookSource,
  useStartedService,
  validLead,
  waitFor,
} from './support.js';

/**
 * docs/api.md, "Do-not-contact": an import of 10,000 phones in one request
 * through the real API, then leads for 100 of them through the real intake; the
 * playbook worker contacts none of them, and contacts leads not on the list;
 * each listed lead's outcome reaches the playbook's subscriber as a webhook.
 * The limits are raised so that 10,000 polls and posts are not refused with 429.
 */
const started = useStartedService('dnc', {
  CONTACT_HOURS: '00:00-24:00',
  INTAKE_RATE_LIMIT_PER_SOURCE: '100000',
  API_RATE_LIMIT_PER_KEY: '100000',
  API_RATE_LIMIT_PER_ADDRESS: '100000',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});
let api: ApiClient;
let postUrl: string;
let subscriber: Subscriber;

/** Distinct dialable San Francisco numbers in E.164. */
const phone = (i: number) => `+1415${2_000_000 + i * 7}`;

interface LeadDetail {
  outcome: string | null;
  activities: Array<{ activity_label: string }>;
}

async function lead(id: string): Promise<LeadDetail> {
  const response = await api(`/leads/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as LeadDetail;
}

const labels = (detail: LeadDetail) => detail.activities.map((a) => a.activity_label);

async function submit(phoneNumber: string): Promise<string> {
  const response = await fetch(postUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validLead({ phone: phoneNumber })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

beforeAll(async () => {
  const { api_key: apiKey } = await createAccount(started.db.url, 'E2E do-not-contact');
  api = apiClient(started.service.ports.API_PORT, apiKey);
  postUrl = await createPlaybookSource(
    api,
    {
      name: 'Two touches',
      steps: [
        { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, your quote is ready.' },
        { type: 'call', delay_seconds: 0 },
      ],
    },
    'Vendor A',
  );
  subscriber = await Subscriber.start();
  const playbooks = (await (await api('/playbooks')).json()) as { data: Array<{ id: string }> };
  const subscribed = await api(`/playbooks/${playbooks.data[0]?.id}/subscriptions`, {
    method: 'POST',
    body: { url: `http://127.0.0.1:${subscriber.port}/hooks`, events: ['*'], outcomes: ['*'] },
  });
  expect(subscribed.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await subscriber?.close();
});

/** The lead ids of the outcome webhooks labelled `label` the subscriber received. */
function webhookLeads(label: string): Set<string> {
  const bodies = subscriber.received.map(
    (r) => JSON.parse(r.body) as { activity_label: string; lead_id: string },
  );
  return new Set(bodies.filter((b) => b.activity_label === label).map((b) => b.lead_id));
}

describe('do-not-contact list', () => {
  it('an import of 10,000 phones in one request, then leads for 100 of them: none is contacted', async () => {
    const listed = Array.from({ length: 10_000 }, (_, i) => phone(i));
    const imported = await api('/suppressions/import', {
      method: 'POST',
      body: { phones: listed },
    });
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ imported: 10_000, already_listed: 0 });

    const suppressed: string[] = [];
    for (let i = 0; i < 100; i++) suppressed.push(await submit(listed[i * 100 + 37] as string));
    // Phones past the imported ones: not on the list.
    const controls: string[] = [];
    for (let i = 0; i < 3; i++) controls.push(await submit(phone(10_000 + i)));

    const outcomes = await waitFor(async () => {
      const details = await Promise.all(suppressed.map(lead));
      return details.every((d) => d.outcome !== null) ? details : undefined;
    }, 120_000);
    for (const detail of outcomes) {
      expect(detail.outcome).toBe('do_not_contact');
      expect(labels(detail)).toEqual(['do_not_contact']);
    }
    for (const id of controls) {
      const contacted = await waitFor(async () => {
        const detail = await lead(id);
        return labels(detail).includes('first_message_sent') ? detail : undefined;
      }, 120_000);
      expect(labels(contacted)).not.toContain('do_not_contact');
    }
    // With the worker's steps seen to run for the controls, the listed leads still have nothing.
    for (const id of suppressed) expect(labels(await lead(id))).toEqual(['do_not_contact']);
    // Each listed lead's outcome is delivered like every outcome.
    await waitFor(
      async () =>
        suppressed.every((id) => webhookLeads('do_not_contact').has(id)) ? true : undefined,
      120_000,
    );
    expect([...webhookLeads('do_not_contact')].sort()).toEqual([...suppressed].sort());
  }, 360_000);
});
