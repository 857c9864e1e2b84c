import {
  expectAccessible,
  pageErrors,
  Subscriber,
  screenshot,
  useBrowser,
} from '@leadhook/testkit';
import { verify } from '@leadhook/webhooks';
import type { BrowserContext, Page } from 'playwright-core';
import { ensureDashboardBuilt, signIn } from '../services/dashboard/tests/support.js';
import {
  type ApiClient,
  apiClient,
  createAccount,
  useStartedService,
  validLead,
  waitFor,
} from './support.js';

/**
 * The account owner's whole flow in a real browser, on `pnpm start` (intake, the
 * api serving the dashboard, both workers), with a real local HTTP server as the
 * subscriber: sign in, a playbook with steps, a source, its Integration
 * Instructions, a lead submitted through the HTML form shown there, the lead's
 * timeline, an Activity Subscription ticking a few labels, the subscriber
 * receiving only those and signed, the delivery log, and Redeliver sending the
 * same webhook-id again (docs/dashboard.md).
 */

// The api serves what is built when it starts: build the dashboard first.
beforeAll(() => ensureDashboardBuilt(), 240_000);
const started = useStartedService('owner-flow', {
  CONTACT_HOURS: '00:00-24:00',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  API_RATE_LIMIT_PER_KEY: '100000',
  API_RATE_LIMIT_PER_ADDRESS: '100000',
});
const browser = useBrowser();

const FLOW_TIMEOUT_MS = 240_000;

let context: BrowserContext;
let page: Page;
let errors: string[];
let subscriber: Subscriber;
let api: ApiClient;

beforeAll(async () => {
  subscriber = await Subscriber.start();
  context = await browser.newContext();
  page = await context.newPage();
  errors = pageErrors(page);
});
afterAll(async () => {
  await context?.close();
  await subscriber?.close();
});

const baseUrl = () => `http://127.0.0.1:${started.service.ports.API_PORT}`;

/**
 * Submits a lead as a seller's web page would: the Integration Instructions'
 * ready HTML form, put in a page of its own, filled in and submitted by the
 * browser to the real intake. Answers intake's answer.
 */
async function submitThroughForm(html: string, phone: string): Promise<{ lead_id: string }> {
  const seller = await context.newPage();
  try {
    await seller.setContent(`<!doctype html><html lang="en"><body>${html}</body></html>`);
    const lead = validLead({ phone });
    const names = await seller
      .locator('form input')
      .evaluateAll((inputs) => inputs.map((input) => (input as unknown as { name: string }).name));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const value = lead[name];
      if (value !== undefined) await seller.locator(`form input[name="${name}"]`).fill(value);
    }
    const [answer] = await Promise.all([
      seller.waitForResponse((r) => r.request().method() === 'POST'),
      seller.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(answer.status()).toBe(201);
    return (await answer.json()) as { lead_id: string };
  } finally {
    await seller.close();
  }
}

/** The bodies the subscriber received for `leadId`, in arrival order. */
const receivedFor = (leadId: string) =>
  subscriber.received
    .map((r) => ({ request: r, body: JSON.parse(r.body) as Record<string, unknown> }))
    .filter(({ body }) => body.lead_id === leadId);

it(
  'signs in, builds a playbook and a source, takes a lead through its form, subscribes, and redelivers',
  async () => {
    const account = await createAccount(started.db.url, 'Owner Flow Co');
    api = apiClient(started.service.ports.API_PORT, account.api_key);
    await signIn(page, baseUrl(), account.api_key);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });

    // A playbook with two steps: an SMS now, another in two hours.
    await nav.getByRole('link', { name: 'Playbooks' }).click();
    await page.getByRole('link', { name: 'New playbook' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Owner playbook');
    await page.getByLabel('Step 1 SMS text').fill('Hi {{first_name}}, your quote is ready.');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 2 delay', { exact: true }).fill('2');
    await page.getByLabel('Step 2 delay unit').selectOption({ label: 'hours' });
    await page.getByLabel('Step 2 SMS text').fill('Still there, {{first_name}}?');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Edit playbook', level: 1 }).waitFor();
    const playbookUrl = page.url();

    // A marketing source of that playbook.
    await nav.getByRole('link', { name: 'Marketing Sources' }).click();
    await page.getByRole('button', { name: 'New marketing source' }).click();
    const form = page.getByRole('dialog', { name: 'New marketing source' });
    await form.getByLabel('Name').fill('Owner source');
    await form.getByLabel('Source type').selectOption({ label: 'Vendor' });
    await form.getByLabel('Playbook').selectOption({ label: 'Owner playbook' });
    await form.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('row', { name: /Owner source/ });
    await row.waitFor();

    // Its Integration Instructions, and a lead through the HTML form shown there.
    await row.getByRole('button', { name: /Integration Instructions/ }).click();
    const panel = page.getByRole('dialog', { name: 'Integration Instructions for Owner source' });
    const postUrl = await panel.getByTestId('post-url').textContent();
    expect(postUrl).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${started.service.ports.INTAKE_PORT}/marketing_sources/`),
    );
    const htmlForm = (await panel.locator('pre').nth(2).textContent()) ?? '';
    expect(htmlForm).toContain(`action="${postUrl}"`);
    await expectAccessible(page, 'the Integration Instructions');
    await panel.getByRole('button', { name: 'Close' }).click();
    const first = await submitThroughForm(htmlForm, '(415) 555-0171');

    // The lead appears, with its timeline.
    await nav.getByRole('link', { name: 'Leads' }).click();
    const leads = page.getByRole('table', { name: 'Leads, newest first' });
    await leads.getByRole('row').nth(1).waitFor();
    await leads.getByRole('link').first().click();
    await page.waitForURL(`${baseUrl()}/dashboard/leads/${first.lead_id}`);
    const timeline = page.getByRole('list', { name: 'Activity timeline, oldest first' });
    await waitFor(async () => {
      const text = (await timeline.textContent()) ?? '';
      if (/first_message_sent|first message/i.test(text)) return true;
      await page.reload();
      return undefined;
    }, 60_000);
    await screenshot(page, 'owner-flow-lead');

    // An Activity Subscription of the playbook, ticking two labels.
    await page.goto(playbookUrl);
    const section = page.getByRole('region', { name: 'Activity Subscriptions' });
    await section.getByRole('button', { name: 'Add webhook URL' }).click();
    const add = section.locator('form.add-subscription');
    await add.getByLabel('Webhook URL').fill(subscriber.url);
    await add
      .getByRole('group', { name: 'Events' })
      .getByLabel('first_message_sent', { exact: true })
      .check();
    await add
      .getByRole('group', { name: 'Outcomes' })
      .getByLabel('qualified', { exact: true })
      .check();
    await add.getByRole('button', { name: 'Save' }).click();
    const secret = (await section.getByTestId('signing-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);

    // A second lead through the form: the subscriber gets only what was ticked, signed.
    const second = await submitThroughForm(htmlForm, '(415) 555-0172');
    // The outcome is reported once the play's first SMS went out: reported
    // sooner, it would end the play before that step ran (a slow machine's order).
    await waitFor(async () => receivedFor(second.lead_id).length >= 1 || undefined, 60_000);
    const reported = await api(`/leads/${second.lead_id}/activities`, {
      method: 'POST',
      body: { activity_type: 'outcome', activity_label: 'qualified' },
    });
    expect(reported.status).toBe(201);
    const deliveries = await waitFor(async () => {
      const got = receivedFor(second.lead_id);
      return got.length >= 2 ? got : undefined;
    }, 60_000);
    expect(deliveries.map(({ body }) => body.activity_label).sort()).toEqual([
      'first_message_sent',
      'qualified',
    ]);
    for (const { request } of deliveries) {
      const headers = request.headers;
      expect(
        verify({
          secret,
          id: String(headers['webhook-id']),
          timestamp: String(headers['webhook-timestamp']),
          signature: String(headers['webhook-signature']),
          body: request.body,
          now: new Date(),
          toleranceSeconds: 600,
        }),
      ).toEqual({ ok: true });
    }
    // The first lead's activities came before the subscription: none was sent.
    expect(receivedFor(first.lead_id)).toEqual([]);

    // The delivery log shows them; Redeliver sends the same webhook-id again.
    const item = section.getByRole('listitem').filter({ hasText: subscriber.url });
    await item.getByRole('link', { name: 'Delivery log' }).click();
    await page.getByRole('heading', { name: 'Delivery log', level: 1 }).waitFor();
    const sent = deliveries.find(({ body }) => body.activity_label === 'first_message_sent')!;
    const webhookId = String(sent.request.headers['webhook-id']);
    const delivery = page.getByRole('listitem').filter({ hasText: webhookId });
    await waitFor(async () => {
      if ((await delivery.count()) > 0) return true;
      await page.getByRole('button', { name: 'Refresh' }).click();
      return undefined;
    }, 60_000);
    const outcome = deliveries.find(({ body }) => body.activity_label === 'qualified')!;
    await page
      .getByRole('listitem')
      .filter({ hasText: String(outcome.body.id) })
      .waitFor();
    await expectAccessible(page, 'the delivery log');
    await screenshot(page, 'owner-flow-delivery-log');
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await waitFor(
      async () =>
        subscriber.ids().filter((id) => id === webhookId).length === 2 ? true : undefined,
      60_000,
    );

    expect(errors).toEqual([]);
  },
  FLOW_TIMEOUT_MS,
);
