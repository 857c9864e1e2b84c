import {
  expectAccessible,
  pageErrors,
  screenshot,
  useBrowser,
  useHarness,
} from '@leadhook/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { signIn, startDashboardApi } from './support.js';

const browser = useBrowser();
// Starting may build the dashboard first (tests/support.ts, ensureDashboardBuilt).
const api = useHarness(() => startDashboardApi(), { timeoutMs: 240_000 });

/** A browser test's own time, generous for a loaded machine. */
const BROWSER_TIMEOUT_MS = 60_000;

let context: BrowserContext;
let page: Page;
let errors: string[];
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  errors = pageErrors(page);
}, BROWSER_TIMEOUT_MS);
afterEach(async () => {
  await context.close();
  // No Content-Security-Policy violation or script error, whatever the test did
  // (a refused key's 401 is logged by the browser as a failed resource: allowed).
  expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
}, BROWSER_TIMEOUT_MS);

const keptKey = () => page.evaluate('sessionStorage.getItem("leadhook.apiKey")');

describe('signing in to the dashboard', () => {
  it(
    'asks for the API key, accessibly',
    async () => {
      await page.goto(`${api.baseUrl}/dashboard`);
      await page.getByLabel('API key').waitFor();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Sign in to leadhook',
      );
      await expectAccessible(page, 'the sign-in screen');
      await screenshot(page, 'sign-in');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'shows the account name for a good key, in an accessible app shell',
    async () => {
      const { api_key } = await api.harness.newAccount('Northwind Leads');
      await signIn(page, api.baseUrl, api_key);
      await expect(page.getByTestId('account-name').textContent()).resolves.toBe('Northwind Leads');
      await page.waitForURL(`${api.baseUrl}/dashboard/integrations/marketing-sources`);
      await page.getByRole('heading', { name: 'Marketing Sources', level: 1 }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Dashboard' });
      for (const name of ['Marketing Sources', 'Playbooks', 'Leads']) {
        await nav.getByRole('link', { name }).waitFor();
      }
      await expect(
        nav.getByRole('link', { name: 'API reference' }).getAttribute('href'),
      ).resolves.toBe('/api/v1/docs');
      await expectAccessible(page, 'the app shell');

      await nav.getByRole('link', { name: 'Playbooks' }).click();
      await page.getByRole('heading', { name: 'Playbooks', level: 1 }).waitFor();
      expect(page.url()).toBe(`${api.baseUrl}/dashboard/playbooks`);
      // The key is this tab's: a reload keeps the session, a deep link opens its screen.
      await page.goto(`${api.baseUrl}/dashboard/leads`);
      await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
      await expect(keptKey()).resolves.toBe(api_key);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'says in words that a wrong key was not accepted, and keeps nothing',
    async () => {
      const { api_key } = await api.harness.newAccount();
      await page.goto(`${api.baseUrl}/dashboard`);
      await page.getByLabel('API key').fill(`${api_key}x`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'The API key was not accepted',
      );
      await expect(page.getByLabel('API key').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(keptKey()).resolves.toBeNull();
      await expectAccessible(page, 'the sign-in screen with an error');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'forgets the key on Sign out: a reload asks for it again',
    async () => {
      const { api_key } = await api.harness.newAccount();
      await signIn(page, api.baseUrl, api_key);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      await expect(keptKey()).resolves.toBeNull();
      await page.reload();
      await page.getByLabel('API key').waitFor();
      await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(0);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'can be used from the keyboard alone',
    async () => {
      const { api_key } = await api.harness.newAccount('Keyboard Co');
      await page.goto(`${api.baseUrl}/dashboard`);
      // The field has focus on arrival; Enter submits.
      await page.getByLabel('API key').waitFor();
      await page.keyboard.type(api_key);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await expect(page.getByTestId('account-name').textContent()).resolves.toBe('Keyboard Co');
    },
    BROWSER_TIMEOUT_MS,
  );
});
