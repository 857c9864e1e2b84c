import {
  expectAccessible,
  pageErrors,
  screenshot,
  useBrowser,
  useHarness,
  waitFor,
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
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await context.newPage();
  errors = pageErrors(page);
}, BROWSER_TIMEOUT_MS);
afterEach(async () => {
  await context.close();
  // A refused name (422) or a revoked key (401) is logged by the browser as a failed
  // resource: allowed.
  expect(errors.filter((e) => !/status of (422|401)/.test(e))).toEqual([]);
}, BROWSER_TIMEOUT_MS);

const keysTable = () => page.getByRole('table', { name: "The account's API keys, newest first" });

/** Signs in and opens Settings > Integrations from the navigation. */
async function openIntegrations(apiKey: string) {
  await signIn(page, api.baseUrl, apiKey);
  const settings = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('list', {
    name: 'Settings',
  });
  await settings.getByRole('link', { name: 'Integrations' }).click();
  await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
  expect(page.url()).toBe(`${api.baseUrl}/dashboard/settings/integrations`);
  await keysTable().waitFor();
}

const accountStatus = async (apiKey: string) =>
  (await api.harness.as(apiKey).get('/api/v1/account')).status;

describe('Settings > Integrations', () => {
  it(
    'creates a key shown once, lists it by prefix, and revokes it after confirmation',
    async () => {
      const { api_key } = await api.harness.newAccount('Settings Co');
      await openIntegrations(api_key);
      // The key the dashboard signed in with is the account's first, "default".
      await expect(
        keysTable()
          .getByRole('row', { name: /default/ })
          .textContent(),
      ).resolves.toContain("this dashboard's key");
      await expectAccessible(page, 'Settings > Integrations');
      await screenshot(page, 'settings-integrations');

      await page.getByLabel('Name', { exact: true }).fill('Zapier');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const shown = page.getByRole('region', { name: 'Your new API key “Zapier”' });
      await shown.waitFor();
      const zapierKey = await shown.getByLabel('API key').inputValue();
      expect(zapierKey).toMatch(/^lh_[A-Za-z0-9_-]{43}$/);
      await shown.getByRole('button', { name: 'Copy' }).click();
      await shown.getByText('Copied to the clipboard.').waitFor();
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(zapierKey);
      await expectAccessible(page, 'a new key shown once');

      const row = keysTable().getByRole('row', { name: /Zapier/ });
      await row.waitFor();
      const prefix = ((await row.locator('code').textContent()) ?? '').replace('…', '');
      expect(prefix.length).toBeGreaterThan(3);
      expect(zapierKey.startsWith(prefix)).toBe(true);
      await expect(accountStatus(zapierKey)).resolves.toBe(200);

      // Shown once: a reload lists the key, never its value.
      await page.reload();
      await keysTable()
        .getByRole('row', { name: /Zapier/ })
        .waitFor();
      await expect(page.getByRole('region', { name: /Your new API key/ }).count()).resolves.toBe(0);
      await expect(page.content()).resolves.not.toContain(zapierKey);

      // Cancel keeps it; confirming revokes it.
      await page.getByRole('button', { name: `Revoke Zapier (${prefix}…)` }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke the API key “Zapier”?' });
      await dialog.waitFor();
      await expect(dialog.textContent()).resolves.not.toContain('signed in with');
      await expectAccessible(page, 'the revoke confirmation');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await expect(accountStatus(zapierKey)).resolves.toBe(200);

      await page.getByRole('button', { name: `Revoke Zapier (${prefix}…)` }).click();
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('The API key “Zapier” was revoked.').waitFor();
      // Focus is not lost with the removed row: it is back on the keys' heading.
      await waitFor(
        async () => (await page.evaluate('document.activeElement?.id')) === 'keys-title',
      );
      await waitFor(
        async () =>
          (await keysTable()
            .getByRole('row', { name: /Zapier/ })
            .count()) === 0,
      );
      await expect(accountStatus(zapierKey)).resolves.toBe(401);
      // The dashboard's own key still works.
      await expect(accountStatus(api_key)).resolves.toBe(200);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'says in words, next to the field, that a key needs a name',
    async () => {
      const { api_key } = await api.harness.newAccount();
      await openIntegrations(api_key);
      await page.getByRole('button', { name: 'Create API key' }).click();
      const name = page.getByLabel('Name', { exact: true });
      await waitFor(async () => (await name.getAttribute('aria-invalid')) === 'true');
      await expect(
        page.locator('#key-name-error').getByRole('alert').textContent(),
      ).resolves.toContain('Enter a name for the key');
      // A name the API refuses (over 100 characters, typed past the field's limit): its words.
      await name.evaluate((input: { removeAttribute(name: string): void }) =>
        input.removeAttribute('maxlength'),
      );
      await name.fill('x'.repeat(101));
      await page.getByRole('button', { name: 'Create API key' }).click();
      await waitFor(async () =>
        /100/.test((await page.locator('#key-name-error').textContent()) ?? ''),
      );
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'warns that revoking the signed-in key signs out, then signs out',
    async () => {
      const { api_key } = await api.harness.newAccount();
      await openIntegrations(api_key);
      await page.getByRole('button', { name: /^Revoke default/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke the API key “default”?' });
      await expect(dialog.textContent()).resolves.toContain(
        'This is the key this dashboard is signed in with.',
      );
      await dialog.getByRole('button', { name: 'Revoke and sign out' }).click();
      // The sign-in screen (until it replaces Settings, "API key" names several regions there).
      await page.getByRole('heading', { name: 'Sign in to leadhook', level: 1 }).waitFor();
      await page.getByRole('textbox', { name: 'API key' }).waitFor();
      await expect(page.evaluate('sessionStorage.getItem("leadhook.apiKey")')).resolves.toBeNull();
      await expect(accountStatus(api_key)).resolves.toBe(401);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'shows the steps to connect Zapier, n8n or Make with this leadhook’s address',
    async () => {
      const { api_key } = await api.harness.newAccount();
      await openIntegrations(api_key);
      const steps = page.getByRole('region', { name: 'Connect Zapier, n8n or Make' });
      await expect(steps.getByTestId('api-base-url').textContent()).resolves.toBe(
        `${api.baseUrl}/api/v1`,
      );
      // The Zapier app connects with the address itself (it adds /api/v1).
      await expect(steps.getByTestId('base-url').textContent()).resolves.toBe(api.baseUrl);
      const text = (await steps.textContent()) ?? '';
      for (const part of [
        '/hooks',
        'Authorization: Bearer',
        '/marketing_sources/',
        'n8n',
        'Make',
        'integrations/zapier',
        'do not unsubscribe',
      ]) {
        expect(text).toContain(part);
      }
    },
    BROWSER_TIMEOUT_MS,
  );
});
