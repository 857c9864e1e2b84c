import { SMS_SMS_CALL_UNANSWERED } from '@leadhook/testkit';
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
 * A lead from a seller's POST to its outcome, through the real processes of
 * `pnpm start`: an account from the CLI, a playbook and a source from the
 * management API, the lead through intake, the playbook worker's steps
 * (simulation provider, contact window open all day), and the timeline read back
 * from the API.
 */

const started = useStartedService('lifecycle', { CONTACT_HOURS: '00:00-24:00' });
let api: ApiClient;
let postUrl: string;

interface LeadDetail {
  outcome: string | null;
  opted_out: boolean;
  activities: Array<{ activity_label: string; data: Record<string, unknown> }>;
}

async function lead(id: string): Promise<LeadDetail> {
  return (await (await api(`/leads/${id}`)).json()) as LeadDetail;
}

const labels = (detail: LeadDetail) => detail.activities.map((a) => a.activity_label);

beforeAll(async () => {
  const { api_key: apiKey } = await createAccount(started.db.url, 'E2E');
  api = apiClient(started.service.ports.API_PORT, apiKey);
  postUrl = await createPlaybookSource(
    api,
    {
      name: 'Three touches',
      steps: [
        { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, your quote is ready.' },
        { type: 'sms', delay_seconds: 1, template: 'Still there, {{first_name}}?' },
        { type: 'call', delay_seconds: 1 },
      ],
    },
    'Vendor A',
  );
}, 60_000);

async function submit(phone: string): Promise<string> {
  const response = await fetch(postUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validLead({ phone })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

describe('a lead from intake to its outcome', () => {
  it('is worked step by step and ends unreachable when it never replies', async () => {
    const leadId = await submit('(415) 555-0142');
    const done = await waitFor(async () => {
      const detail = await lead(leadId);
      return detail.outcome === 'unreachable' ? detail : undefined;
    });
    expect(labels(done)).toEqual(SMS_SMS_CALL_UNANSWERED);
  }, 60_000);

  it('stops at once on a STOP reply: opted out, and no later step runs', async () => {
    const leadId = await submit('(415) 555-0143');
    await waitFor(async () =>
      labels(await lead(leadId)).includes('first_message_sent') ? true : undefined,
    );
    const reply = await api(`/leads/${leadId}/activities`, {
      method: 'POST',
      body: {
        activity_type: 'event',
        activity_label: 'message_received',
        data: { body: ' Stop ' },
      },
    });
    expect(reply.status).toBe(201);
    const stopped = await lead(leadId);
    expect(stopped).toMatchObject({ outcome: 'opted_out', opted_out: true });
    // The second SMS was due 1 s after the first; give it time to (not) happen.
    await new Promise((r) => setTimeout(r, 2500));
    const after = labels(await lead(leadId));
    expect(after).not.toContain('message_sent');
    expect(after).not.toContain('call_attempted');
    expect(after.slice(-3)).toEqual(['message_received', 'stopped', 'opted_out']);
  }, 60_000);
});
