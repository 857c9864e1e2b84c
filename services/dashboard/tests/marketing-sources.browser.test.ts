import {
  expectAccessible,
  pageErrors,
  screenshot,
  useBrowser,
  useHarness,
  validLead,
} from '@leadhook/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { playbookBody } from '../../api/src/testing/harness.js';
import { signIn, startDashboardApi } from './support.js';

const browser = useBrowser();
// Starting may build the dashboard first (tests/support.ts, ensureDashboardBuilt).
const api = useHarness(() => startDashboardApi(), { timeoutMs: 240_000 });

/** A browser test's own time, generous for a loaded machine. */
const BROWSER_TIMEOUT_MS = 120_000;

let context: BrowserContext;
let page: Page;
let errors: string[];
beforeEach(async () => {
  // Copy writes to the clipboard; the test reads it back.
  context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  errors = pageErrors(page);
}, BROWSER_TIMEOUT_MS);
afterEach(async () => {
  await context.close();
  // The 422 a test provokes is logged by the browser as a failed resource: allowed.
  expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
}, BROWSER_TIMEOUT_MS);

/** The source as the API has it (GET /marketing_sources), by name. */
async function sourceNamed(apiKey: string, name: string) {
  const { body } = await api.harness.as(apiKey).get('/api/v1/marketing_sources').expect(200);
  return (
    body.data as {
      id: string;
      name: string;
      status: string;
      post_url: string;
      source_type: string;
    }[]
  ).find((source) => source.name === name);
}

const focusedName = () =>
  page.evaluate(
    '(document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "").trim()',
  );

describe('Integrations > Marketing Sources', () => {
  it(
    'says what to do when there are no sources, and that a playbook comes first',
    async () => {
      const { api_key } = await api.harness.newAccount('Empty Co');
      await signIn(page, api.baseUrl, api_key);
      await page.getByRole('heading', { name: 'No marketing sources yet' }).waitFor();
      await expectAccessible(page, 'the empty Marketing Sources screen');
      await screenshot(page, 'marketing-sources-empty');

      await page.getByRole('button', { name: 'New marketing source' }).click();
      const dialog = page.getByRole('dialog', { name: 'New marketing source' });
      await expect(dialog.textContent()).resolves.toContain('Create a playbook first');
      await dialog.getByRole('link', { name: 'Playbooks' }).click();
      await page.getByRole('heading', { name: 'Playbooks', level: 1 }).waitFor();
      expect(page.url()).toBe(`${api.baseUrl}/dashboard/playbooks`);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'creates a source with the form, pauses, resumes, rotates, instructs, counts and deletes it',
    async () => {
      const { api_key } = await api.harness.newAccount('Northwind Leads');
      const owner = api.harness.as(api_key);
      await owner
        .post('/api/v1/playbooks')
        .send(playbookBody({ name: 'Auto quotes' }))
        .expect(201);
      await signIn(page, api.baseUrl, api_key);
      await page.getByRole('heading', { name: 'No marketing sources yet' }).waitFor();

      // The form: a blank name is the API's 422, shown in words beside Name.
      const opener = page.getByRole('button', { name: 'New marketing source' });
      await opener.click();
      const form = page.getByRole('dialog', { name: 'New marketing source' });
      await form.getByLabel('Name').fill('   ');
      await form.getByRole('button', { name: 'Save' }).click();
      const nameError = form.locator('#new-source-name-error');
      await expect(nameError.textContent()).resolves.toBe('Name must not be blank.');
      await expect(form.getByLabel('Name').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.evaluate('document.activeElement?.id')).resolves.toBe('new-source-name');
      await expect(form.getByLabel('Name').getAttribute('aria-describedby')).resolves.toContain(
        'new-source-name-error',
      );
      await expect(form.getByRole('alert').textContent()).resolves.toContain(
        'correct the fields marked below',
      );
      await expect(form.textContent()).resolves.not.toMatch(/[{}]|validation_failed/);
      await expectAccessible(page, 'the New marketing source form with an error');
      await screenshot(page, 'marketing-sources-form-errors');

      await form.getByLabel('Name').fill('A'.repeat(201));
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('Name is too long (at most 200).').waitFor();
      await form.getByLabel('Name').fill('Acme Leads');
      await form.getByLabel('Source type').selectOption({ label: 'Affiliate' });
      await expect(form.getByLabel('Playbook').inputValue()).resolves.toMatch(/^pb_/);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });

      const row = page.locator('tbody tr', { hasText: 'Acme Leads' });
      await row.waitFor();
      await expect(row.getByRole('cell').allTextContents()).resolves.toEqual(
        expect.arrayContaining(['Affiliate', 'Auto quotes', 'Active']),
      );
      await expect(row.locator('[data-column="accepted"]').textContent()).resolves.toBe('0');
      const created = await sourceNamed(api_key, 'Acme Leads');
      expect(created).toMatchObject({ source_type: 'affiliate', status: 'active' });
      const sourceId = created!.id;
      await expectAccessible(page, 'the Marketing Sources table');
      await screenshot(page, 'marketing-sources');

      // Pause, then Resume: each asks first.
      await row.getByRole('button', { name: 'Pause Acme Leads' }).click();
      const pause = page.getByRole('dialog', { name: 'Pause Acme Leads?' });
      await pause.getByRole('button', { name: 'Pause' }).click();
      await row.getByText('Paused', { exact: true }).waitFor();
      await expect(sourceNamed(api_key, 'Acme Leads')).resolves.toMatchObject({
        status: 'paused',
      });
      await row.getByRole('button', { name: 'Resume Acme Leads' }).click();
      await page
        .getByRole('dialog', { name: 'Resume Acme Leads?' })
        .getByRole('button', { name: 'Resume' })
        .click();
      await row.getByText('Active', { exact: true }).waitFor();
      await expect(sourceNamed(api_key, 'Acme Leads')).resolves.toMatchObject({
        status: 'active',
      });

      // Cancel acts on nothing.
      await row.getByRole('button', { name: 'Delete Acme Leads' }).click();
      await page
        .getByRole('dialog', { name: 'Delete Acme Leads?' })
        .getByRole('button', { name: 'Cancel' })
        .click();
      await expect(focusedName()).resolves.toBe('Delete Acme Leads');
      await expect(sourceNamed(api_key, 'Acme Leads')).resolves.toBeDefined();

      // Integration Instructions: the post URL, the fields, the examples, Copy.
      const instructionsButton = row.getByRole('button', { name: /Integration Instructions/ });
      await instructionsButton.click();
      let panel = page.getByRole('dialog', { name: 'Integration Instructions for Acme Leads' });
      const postUrl = panel.getByTestId('post-url');
      await expect(postUrl.textContent()).resolves.toBe(created!.post_url);
      const phone = panel.getByRole('row', { name: /^phone/ });
      await expect(phone.getByRole('cell').first().textContent()).resolves.toBe('Required');
      for (const title of [
        'Example: curl with JSON',
        'Example: curl with a form',
        'Ready HTML form',
      ]) {
        await panel.getByRole('heading', { name: title }).waitFor();
      }
      await expect(panel.locator('pre').nth(2).textContent()).resolves.toContain('<form');
      const copy = panel.getByRole('button', { name: 'Copy the post URL' });
      await copy.click();
      await panel.getByRole('button', { name: 'Copied the post URL' }).waitFor();
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(
        created!.post_url,
      );
      await expectAccessible(page, 'the Integration Instructions');
      await screenshot(page, 'integration-instructions');
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      await expect(focusedName()).resolves.toBe('Integration Instructions for Acme Leads');

      // Rotate URL: the instructions then show the new one.
      await row.getByRole('button', { name: 'Rotate URL Acme Leads' }).click();
      await page
        .getByRole('dialog', { name: 'Rotate the post URL of Acme Leads?' })
        .getByRole('button', { name: 'Rotate URL' })
        .click();
      await page.getByRole('status').filter({ hasText: 'has a new post URL' }).waitFor();
      const rotated = (await sourceNamed(api_key, 'Acme Leads'))!.post_url;
      expect(rotated).not.toBe(created!.post_url);
      await instructionsButton.click();
      panel = page.getByRole('dialog', { name: 'Integration Instructions for Acme Leads' });
      await expect(panel.getByTestId('post-url').textContent()).resolves.toBe(rotated);
      await panel.getByRole('button', { name: 'Close' }).click();

      // A lead for the source. Intake does not run here: the API's create-lead action
      // takes intake's own path for the source of the post URL shown.
      expect(rotated).toMatch(/\/marketing_sources\/acc_[^/]+\/[^/]+$/);
      await owner.post(`/api/v1/marketing_sources/${sourceId}/leads`).send(validLead()).expect(201);
      await owner
        .post(`/api/v1/marketing_sources/${sourceId}/leads`)
        .send(validLead({ email: 'not an address' }))
        .expect(422);

      // A new period asks again: the lead counts as accepted today.
      await page.getByLabel('Period').selectOption({ label: 'Last 7 days' });
      await page.getByText('Marketing sources, last 7 days').waitFor();
      await row.locator('[data-column="accepted"]', { hasText: '1' }).waitFor();
      await expect(row.locator('[data-column="rejected"]').textContent()).resolves.toBe('1');

      // The source's page: the day's figure in its table.
      await row.getByRole('link', { name: 'Acme Leads' }).click();
      await page.getByRole('heading', { name: 'Acme Leads', level: 1 }).waitFor();
      expect(page.url()).toBe(
        `${api.baseUrl}/dashboard/integrations/marketing-sources/${sourceId}`,
      );
      const today = new Date().toISOString().slice(0, 10);
      const day = page.getByRole('row', { name: new RegExp(`^${today}`) });
      await expect(day.locator('[data-column="accepted"]').textContent()).resolves.toBe('1');
      await expect(day.locator('[data-column="rejected"]').textContent()).resolves.toBe('1');
      const days = page.getByRole('table', { name: /Figures per day/ });
      await expect(days.getByRole('row').count()).resolves.toBe(31);
      const reason = page.getByRole('row', { name: /^email/ });
      await expect(reason.getByRole('cell').allTextContents()).resolves.toEqual([
        'Not in the expected format',
        '1',
      ]);
      await expectAccessible(page, "a source's page");
      await screenshot(page, 'marketing-source');
      await page.getByRole('button', { name: 'Integration Instructions' }).click();
      panel = page.getByRole('dialog', { name: 'Integration Instructions for Acme Leads' });
      await expect(panel.getByTestId('post-url').textContent()).resolves.toBe(rotated);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });

      // Delete, confirmed: gone from the table and from the API.
      await page.getByRole('link', { name: 'Back to Marketing Sources' }).click();
      await row.getByRole('button', { name: 'Delete Acme Leads' }).click();
      await page
        .getByRole('dialog', { name: 'Delete Acme Leads?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByRole('heading', { name: 'No marketing sources yet' }).waitFor();
      await owner.get(`/api/v1/marketing_sources/${sourceId}`).expect(404);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'pages with the API cursor, one request a page whatever the number of sources',
    async () => {
      const { api_key } = await api.harness.newAccount('Big Co');
      const owner = api.harness.as(api_key);
      const playbook = await owner.post('/api/v1/playbooks').send(playbookBody()).expect(201);
      // One more than a page (SOURCES_PAGE_SIZE, 100): the first is on page 2.
      for (let n = 1; n <= 101; n++) {
        await owner
          .post('/api/v1/marketing_sources')
          .send({
            name: `Source ${String(n).padStart(3, '0')}`,
            source_type: 'campaign',
            playbook_id: playbook.body.id,
          })
          .expect(201);
      }
      const requests: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/v1/')) requests.push(url.pathname + url.search);
      });
      await signIn(page, api.baseUrl, api_key);
      const rows = page.locator('tbody tr');
      await page.locator('tbody tr', { hasText: 'Source 101' }).waitFor();
      await expect(rows.count()).resolves.toBe(100);
      // The account, one page of figures, one list of playbooks: nothing per row.
      const paths = requests.map((r) => r.split('?')[0]);
      expect(paths.sort()).toEqual([
        '/api/v1/account',
        '/api/v1/playbooks',
        '/api/v1/stats/sources',
      ]);
      expect(requests.find((r) => r.startsWith('/api/v1/stats/sources'))).toMatch(
        /from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&limit=100$/,
      );

      const pages = page.getByRole('navigation', { name: 'Pages of marketing sources' });
      await pages.getByRole('button', { name: 'Next page' }).click();
      await page.locator('tbody tr', { hasText: 'Source 001' }).waitFor();
      await expect(rows.count()).resolves.toBe(1);
      await expect(pages.getByRole('button', { name: 'Next page' }).isDisabled()).resolves.toBe(
        true,
      );
      await pages.getByRole('button', { name: 'Previous page' }).click();
      await page.locator('tbody tr', { hasText: 'Source 101' }).waitFor();
      await expect(rows.count()).resolves.toBe(100);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'can be used from the keyboard: the dialogs take focus, Escape cancels, Enter saves',
    async () => {
      const { api_key } = await api.harness.newAccount('Keyboard Co');
      await api.harness.as(api_key).post('/api/v1/playbooks').send(playbookBody()).expect(201);
      await signIn(page, api.baseUrl, api_key);
      await page.getByRole('heading', { name: 'No marketing sources yet' }).waitFor();
      const opener = page.getByRole('button', { name: 'New marketing source' });
      await opener.focus();
      await page.keyboard.press('Enter');
      const form = page.getByRole('dialog', { name: 'New marketing source' });
      await form.waitFor();
      await expect(page.evaluate('document.activeElement?.id')).resolves.toBe('new-source-name');
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });
      await expect(focusedName()).resolves.toBe('New marketing source');

      await page.keyboard.press('Enter');
      await form.waitFor();
      await page.keyboard.type('Typed Source');
      await page.keyboard.press('Enter');
      await page.locator('tbody tr', { hasText: 'Typed Source' }).waitFor();
      await expect(sourceNamed(api_key, 'Typed Source')).resolves.toMatchObject({
        source_type: 'vendor',
      });
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'offers every playbook of the account in the form, past the first page of 100',
    async () => {
      const { api_key } = await api.harness.newAccount('Many Playbooks Co');
      const as = api.harness.as(api_key);
      for (let i = 0; i < 101; i++) {
        await as
          .post('/api/v1/playbooks')
          .send(playbookBody({ name: `Playbook ${String(i).padStart(3, '0')}` }))
          .expect(201);
      }
      await signIn(page, api.baseUrl, api_key);
      await page.getByRole('button', { name: 'New marketing source' }).click();
      const form = page.getByRole('dialog', { name: 'New marketing source' });
      // Newest first: the oldest playbook is on the API's second page.
      await form.getByLabel('Playbook').selectOption({ label: 'Playbook 000' });
      await expect(
        form.getByLabel('Playbook').locator('option').count(),
      ).resolves.toBeGreaterThanOrEqual(101);
    },
    BROWSER_TIMEOUT_MS,
  );
});
