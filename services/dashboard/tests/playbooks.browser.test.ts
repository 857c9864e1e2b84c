import { loadConfig } from '@leadhook/config';
import { createLogger } from '@leadhook/observability';
import {
  expectAccessible,
  pageErrors,
  Subscriber,
  screenshot,
  useBrowser,
  useHarness,
  useTestWorkers,
  validLead,
  waitFor,
} from '@leadhook/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { createWorker } from '../../webhook-worker/src/worker.js';
import { signIn, startDashboardApi } from './support.js';

const browser = useBrowser();
// The subscriber is a real local HTTP server: the api must accept loopback URLs.
const api = useHarness(() => startDashboardApi({ webhookAllowPrivateTargets: true }), {
  timeoutMs: 240_000,
});
// The real webhook worker, in-process on the api's database and queue prefix.
const workers = useTestWorkers(
  {
    get url() {
      return api.harness.db.url;
    },
  },
  (settings) =>
    createWorker({
      config: loadConfig(settings),
      port: 0,
      logger: createLogger({ service: 'webhook-worker', level: 'silent' }),
      relayIntervalMs: 100,
      webhooks: { reconcileIntervalMs: 500 },
    }),
);

/** A browser test's own time, generous for a loaded machine. */
const BROWSER_TIMEOUT_MS = 120_000;

let context: BrowserContext;
let page: Page;
let errors: string[];
const subscribers: Subscriber[] = [];
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  errors = pageErrors(page);
}, BROWSER_TIMEOUT_MS);
afterEach(async () => {
  await context.close();
  await Promise.all(subscribers.splice(0).map((s) => s.close()));
  // The 422 and 409 answers the screens show in words are logged by the browser
  // as failed resources: allowed; nothing else (a CSP violation, a script error).
  expect(errors.filter((e) => !/status of (422|409)/.test(e))).toEqual([]);
}, BROWSER_TIMEOUT_MS);

describe('the Playbooks screen', () => {
  it(
    'lists, creates with ordered steps, shows a 422 by its field, edits and deletes a playbook',
    async () => {
      const { api_key } = await api.harness.newAccount('Playbook Co');
      await signIn(page, api.baseUrl, api_key);
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Playbooks' })
        .click();
      await page.getByRole('heading', { name: 'Playbooks', level: 1 }).waitFor();
      // The empty state says what to do next.
      await page.getByText('No playbooks yet').waitFor();
      await page.getByText('No webhook URL yet').waitFor();

      await page.getByRole('link', { name: 'New playbook' }).click();
      await page.getByRole('heading', { name: 'New playbook', level: 1 }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Auto quotes');
      await page.getByLabel('Step 1 SMS text').fill('Hi {{first_name}}, thanks!');
      await page.getByRole('button', { name: 'Add step' }).click();
      await page.getByLabel('Step 2 delay', { exact: true }).fill('2');
      await page.getByLabel('Step 2 delay unit').selectOption({ label: 'hours' });
      // An unknown placeholder: the API's 422 names steps[1].template.
      await page.getByLabel('Step 2 SMS text').fill('Still there, {{nickname}}?');
      await page.getByRole('button', { name: 'Save' }).click();
      const stepTwo = page.getByLabel('Step 2 SMS text');
      await waitFor(async () => (await stepTwo.getAttribute('aria-invalid')) === 'true', {
        timeoutMs: 30_000,
      });
      const describedBy = (await stepTwo.getAttribute('aria-describedby'))!.split(' ')[0]!;
      const fieldError = await page.locator(`#${describedBy}`).textContent();
      // In words, by the field: no path (steps[1]…), no JSON.
      expect(fieldError).toMatch(
        /^Unknown placeholder \{\{nickname\}\} in the template; known: first_name,/,
      );
      expect(fieldError).not.toMatch(/steps\[|"field"|"code"/);
      await expect(
        page.getByLabel('Step 1 SMS text').getAttribute('aria-invalid'),
      ).resolves.toBeNull();
      await page.getByRole('alert').first().waitFor();
      await expectAccessible(page, 'the playbook editor with an error');
      await screenshot(page, 'playbook-editor');

      await stepTwo.fill('Still looking for a quote, {{ first_name }}?');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: 'Edit playbook', level: 1 }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Saved “Auto quotes”' }).waitFor();
      const id = page.url().split('/').pop()!;
      expect(id).toMatch(/^pb_/);
      const stored = await api.harness.as(api_key).get(`/api/v1/playbooks/${id}`);
      expect(stored.body.steps).toEqual([
        { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}, thanks!' },
        {
          type: 'sms',
          delay_seconds: 7200,
          template: 'Still looking for a quote, {{ first_name }}?',
        },
      ]);

      // Edit: a call first (moved up from the end), a new name.
      await page.getByRole('button', { name: 'Add step' }).click();
      await page.getByLabel('Step 3 type').selectOption('call');
      await page.getByRole('button', { name: 'Move step 3 up' }).click();
      await page.getByRole('button', { name: 'Move step 2 up' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Auto quotes, call first');
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Saved “Auto quotes, call first”' })
        .waitFor();
      const edited = await api.harness.as(api_key).get(`/api/v1/playbooks/${id}`);
      expect(edited.body.name).toBe('Auto quotes, call first');
      expect(edited.body.steps.map((s: { type: string }) => s.type)).toEqual([
        'call',
        'sms',
        'sms',
      ]);

      await page.getByRole('link', { name: 'Back to Playbooks' }).click();
      await page.getByRole('link', { name: 'Auto quotes, call first' }).waitFor();
      await expectAccessible(page, 'the playbooks list');
      await screenshot(page, 'playbooks-list');

      // Delete, confirmed.
      await page.getByRole('link', { name: 'Auto quotes, call first' }).click();
      await page.getByRole('button', { name: 'Delete playbook' }).click();
      await page.getByRole('button', { name: 'Yes, delete the playbook' }).click();
      await page.getByRole('heading', { name: 'Playbooks', level: 1 }).waitFor();
      await page.getByText('No playbooks yet').waitFor();
      expect((await api.harness.as(api_key).get(`/api/v1/playbooks/${id}`)).status).toBe(404);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'adds a webhook URL, shows its secret once, tests it, and shows and redelivers its deliveries',
    async () => {
      await workers.start({
        QUEUE_PREFIX: api.harness.queuePrefix,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_MS: '5000',
      });
      const subscriber = await Subscriber.start((_req, res) => {
        res.end('thanks from the CRM');
      });
      subscribers.push(subscriber);
      const owner = await api.harness.owner();
      const sourceId = await api.harness.newSource(owner);
      await signIn(page, api.baseUrl, owner.apiKey);
      await page.goto(`${api.baseUrl}/dashboard/playbooks/${owner.playbookId}`);
      await page.getByRole('heading', { name: 'Edit playbook', level: 1 }).waitFor();

      const section = page.getByRole('region', { name: 'Activity Subscriptions' });
      await section.getByRole('button', { name: 'Add webhook URL' }).click();
      const form = section.locator('form.add-subscription');
      await form.getByLabel('Webhook URL').fill(subscriber.url);
      const events = form.getByRole('group', { name: 'Events' });
      await events.getByLabel('message_received', { exact: true }).check();
      await events.getByLabel('call_answered', { exact: true }).check();
      await form
        .getByRole('group', { name: 'Outcomes' })
        .getByLabel('qualified', { exact: true })
        .check();
      await expectAccessible(page, 'the Add webhook URL form');
      await form.getByRole('button', { name: 'Save' }).click();

      const secret = await section.getByTestId('signing-secret').textContent();
      expect(secret).toMatch(/^whsec_/);
      const [subscription] = (
        await api.harness
          .as(owner.apiKey)
          .get(`/api/v1/playbooks/${owner.playbookId}/subscriptions`)
      ).body.data;
      expect(subscription).toMatchObject({
        url: subscriber.url,
        events: ['message_received', 'call_answered'],
        outcomes: ['qualified'],
      });
      await section.getByRole('button', { name: 'Copy' }).waitFor();
      await expectAccessible(page, 'the subscriptions section with its secret');
      await screenshot(page, 'playbook-subscriptions');

      // Shown once: a reload does not show it again.
      await page.reload();
      const item = section.getByRole('listitem').filter({ hasText: subscriber.url });
      await item.waitFor();
      await expect(page.getByText(secret!).count()).resolves.toBe(0);
      await expect(page.getByTestId('signing-secret').count()).resolves.toBe(0);

      // Send test: the subscriber's status, latency and answer.
      await item.getByRole('button', { name: 'Send test' }).click();
      const result = item.getByRole('status');
      await result.getByText(/status 200 in \d+ ms/).waitFor({ timeout: 30_000 });
      await result.getByText('thanks from the CRM').waitFor();
      expect(subscriber.received.some((r) => r.body.includes('"test"'))).toBe(true);

      // An activity of a lead of a source of the playbook goes out as a delivery.
      const lead = await api.harness
        .as(owner.apiKey)
        .post(`/api/v1/marketing_sources/${sourceId}/leads`)
        .send(validLead());
      expect(lead.status).toBe(201);
      const activity = await api.harness
        .as(owner.apiKey)
        .post(`/api/v1/leads/${lead.body.lead_id}/activities`)
        .send({ activity_type: 'event', activity_label: 'call_answered' });
      expect(activity.status).toBe(201);
      const activityId: string = activity.body.id;
      await waitFor(() => subscriber.ids().includes(activityId), { timeoutMs: 60_000 });

      await item.getByRole('link', { name: 'Delivery log' }).click();
      await page.getByRole('heading', { name: 'Delivery log', level: 1 }).waitFor();
      const delivery = page.getByRole('listitem').filter({ hasText: activityId });
      await delivery.getByRole('heading', { name: /call_answered/ }).waitFor();
      await delivery.getByText(lead.body.lead_id).waitFor();
      const attempts = delivery.getByRole('table');
      await attempts.getByRole('cell', { name: '200', exact: true }).waitFor();
      await attempts.getByText('thanks from the CRM').waitFor();
      await expectAccessible(page, 'the delivery log');
      await screenshot(page, 'delivery-log');

      // Filtered by status: none failed.
      await page.getByLabel('Status', { exact: true }).selectOption('failed');
      await page.getByText('No delivery in this status').waitFor();
      await page.getByLabel('Status', { exact: true }).selectOption('');

      // Filtered by period (UTC days, both included): one before the delivery, none
      // shown; one around it, shown again.
      const from = page.getByLabel('Created from');
      const to = page.getByLabel('Created to');
      await from.fill('2020-01-01');
      await to.fill('2020-01-31');
      await page.getByText('No delivery created in this period').waitFor();
      await expect(delivery.count()).resolves.toBe(0);
      await expectAccessible(page, 'the delivery log, empty for its period');
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await to.fill(tomorrow);
      await delivery.getByRole('heading', { name: /call_answered/ }).waitFor();
      await expect(page.getByText('No delivery created in this period').count()).resolves.toBe(0);
      // A period that ends before it starts is said next to the date.
      await from.fill(tomorrow);
      await to.fill('2020-01-31');
      await page.getByText('from must not be after to').waitFor();
      await expect(from.getAttribute('aria-invalid')).resolves.toBe('true');
      await expectAccessible(page, 'the delivery log with a period refused');
      await to.fill('');
      await from.fill('');
      await delivery.getByRole('heading', { name: /call_answered/ }).waitFor();

      // Redeliver sends the same webhook-id again; its attempts stay listed.
      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      await page.getByRole('status').filter({ hasText: 'being sent again' }).waitFor();
      await waitFor(() => subscriber.ids().filter((id) => id === activityId).length === 2, {
        timeoutMs: 60_000,
      });
      await waitFor(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await delivery.getByRole('table').getByRole('row').count()) === 3;
        },
        { timeoutMs: 60_000 },
      );

      // Recover failed since…: nothing failed, said in words.
      await page.getByLabel('Recover failed since…').fill('2020-01-01T00:00');
      await page.getByRole('button', { name: 'Recover failed deliveries' }).click();
      await page.getByText('No failed delivery since then').waitFor();

      // Rotate secret: the new one is shown once, and differs.
      await page.getByRole('link', { name: 'Back to the playbook' }).click();
      await item.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = await section.getByTestId('signing-secret').textContent();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await section.getByRole('button', { name: 'I have stored it' }).click();
      await expect(section.getByTestId('signing-secret').count()).resolves.toBe(0);

      // Disable, then delete (confirmed).
      await item.getByRole('button', { name: 'Disable' }).click();
      await item.getByText('Disabled (manual)').waitFor();
      await item.getByRole('button', { name: 'Enable' }).waitFor();
      await item.getByRole('button', { name: 'Delete' }).click();
      await item.getByRole('button', { name: 'Yes, delete it' }).click();
      await section.getByText('No webhook URL yet').waitFor();
      const left = await api.harness.as(owner.apiKey).get('/api/v1/subscriptions');
      expect(left.body.data).toEqual([]);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'edits steps from the keyboard alone, focus visible and kept on the step that moved',
    async () => {
      const { api_key } = await api.harness.newAccount('Keyboard Co');
      await signIn(page, api.baseUrl, api_key);
      await page.goto(`${api.baseUrl}/dashboard/playbooks/new`);
      await page.getByRole('heading', { name: 'New playbook', level: 1 }).waitFor();
      // Node-side code: what runs in the page is a string (no DOM types here).
      const focused = () =>
        page.evaluate<{ text: string; outline: string }>(
          '({ text: document.activeElement.textContent, outline: getComputedStyle(document.activeElement).outlineStyle })',
        );
      // The screen focuses its heading; Tab from there to the Name field, past the back link.
      await waitFor(() => page.evaluate<boolean>('document.activeElement?.id === "screen-title"'));
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Keyboard playbook');
      await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(
        'Keyboard playbook',
      );
      await page.getByLabel('Step 1 SMS text').focus();
      await page.keyboard.type('Hello {{first_name}}');
      await page.getByRole('button', { name: 'Add step' }).focus();
      await page.keyboard.press('Enter');
      await page.getByLabel('Step 2 type').focus();
      await page.keyboard.press('ArrowDown'); // SMS → Call
      await page.getByRole('button', { name: 'Move step 2 up' }).focus();
      await page.keyboard.press('Enter');
      await waitFor(async () => (await focused()).text === 'Move step 1 down');
      expect((await focused()).outline).not.toBe('none');
      await expect(page.getByLabel('Step 1 type').inputValue()).resolves.toBe('call');
      await page.getByRole('button', { name: 'Save' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Edit playbook', level: 1 }).waitFor();
      const [stored] = (await api.harness.as(api_key).get('/api/v1/playbooks')).body.data;
      expect(stored.steps.map((s: { type: string }) => s.type)).toEqual(['call', 'sms']);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'adds an account-wide webhook URL for all events and all outcomes',
    async () => {
      const { api_key } = await api.harness.newAccount('Everything Co');
      await signIn(page, api.baseUrl, api_key);
      await page.goto(`${api.baseUrl}/dashboard/playbooks`);
      const section = page.getByRole('region', { name: 'Account-wide Activity Subscriptions' });
      await section.getByRole('button', { name: 'Add webhook URL' }).click();
      const form = section.locator('form.add-subscription');
      // A URL the API refuses: the 422 is shown by the field, in words.
      await form.getByLabel('Webhook URL').fill('ftp://crm.example.com/hooks');
      await form.getByLabel('All events').check();
      await form.getByRole('button', { name: 'Save' }).click();
      await waitFor(
        async () => (await form.getByLabel('Webhook URL').getAttribute('aria-invalid')) === 'true',
        { timeoutMs: 30_000 },
      );
      await form.getByLabel('Webhook URL').fill('https://crm.example.com/hooks/leadhook');
      await form.getByLabel('All outcomes').check();
      await form.getByRole('button', { name: 'Save' }).click();
      await section.getByTestId('signing-secret').waitFor();
      await section.getByRole('button', { name: 'I have stored it' }).click();
      const item = section.getByRole('listitem').filter({ hasText: 'crm.example.com' });
      await item.getByText('All events').waitFor();
      const listed = await api.harness.as(api_key).get('/api/v1/subscriptions');
      expect(listed.body.data).toMatchObject([
        { playbook_id: null, events: ['*'], outcomes: ['*'] },
      ]);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'pages the account-wide webhook URLs with the API cursor, leaving the playbooks’ out',
    async () => {
      const owner = await api.harness.owner();
      const as = api.harness.as(owner.apiKey);
      // One of the playbook's own, then 26 account-wide: a page of 25 and one more.
      await as
        .post(`/api/v1/playbooks/${owner.playbookId}/subscriptions`)
        .send({ url: 'https://crm.example.com/playbook-only', events: ['*'], outcomes: [] })
        .expect(201);
      for (let i = 0; i < 26; i++) {
        await as
          .post('/api/v1/subscriptions')
          .send({ url: `https://crm.example.com/wide/${i}`, events: ['*'], outcomes: [] })
          .expect(201);
      }
      await signIn(page, api.baseUrl, owner.apiKey);
      await page.goto(`${api.baseUrl}/dashboard/playbooks`);
      const section = page.getByRole('region', { name: 'Account-wide Activity Subscriptions' });
      const items = section.getByRole('list').first().getByRole('listitem');
      await waitFor(async () => (await items.count()) === 25, { timeoutMs: 30_000 });
      await section.getByRole('button', { name: 'Show more subscriptions' }).click();
      await waitFor(async () => (await items.count()) === 26, { timeoutMs: 30_000 });
      await expect(
        section.getByRole('button', { name: 'Show more subscriptions' }).count(),
      ).resolves.toBe(0);
      await expect(section.getByText('playbook-only').count()).resolves.toBe(0);
    },
    BROWSER_TIMEOUT_MS,
  );
});
