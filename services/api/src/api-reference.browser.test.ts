import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectAccessible, useHarness } from '@leadhook/testkit';
import { type Browser, chromium } from 'playwright-core';
import { startHarness } from './testing/harness.js';

/**
 * The API reference page in a real browser (Debian's chromium, driven by
 * playwright-core): it renders the served document, under its
 * Content-Security-Policy, with every request it makes answered by the api.
 */

const h = useHarness(() => startHarness());
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  server = createServer(h.app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', // Debian's; playwright-core downloads none
    headless: true,
    args: ['--no-sandbox'],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

it("renders the document's title and operations, breaking no policy, asking nothing of another origin", async () => {
  const context = await browser.newContext();
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  // Nothing may reach the network beyond the api, whatever the page asks for.
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort(),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // What the policy refused, as the page itself is told (the console may not say).
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`,
  });

  const answer = await page.goto(`${origin}/api/v1/docs`);
  expect(answer?.status()).toBe(200);
  expect(await answer?.headerValue('content-security-policy')).toContain("script-src 'self'");
  await page.getByText('Create a marketing source').first().waitFor({ timeout: 60_000 });

  const text = (await page.locator('#api-reference').textContent()) ?? '';
  expect(text).toContain('leadhook management API');
  expect(text).toContain('Marketing sources');
  expect(text).toContain('List marketing sources, newest first');
  expect(text).toContain('Issue a new post_url; the old one stops working at once');
  expect(text).toContain('/marketing_sources/{id}/rotate_url');
  // Opening an operation renders its responses (the renderer's lazy parts run too).
  await page.getByText('Create a marketing source').first().click();
  await page
    .getByText('validation_failed: every problem is listed in details.')
    .first()
    .waitFor({ timeout: 60_000 });
  // Its deep link is in the address bar (the summary button holds no link of its own).
  expect(new URL(page.url()).hash).toBe('#/Marketing%20sources/createMarketingSource');
  // Readable by everyone, like every dashboard screen, with an operation open too:
  // every control has a name (the servers list is "Server").
  expect(await page.getByRole('combobox', { name: 'Server' }).count()).toBe(1);
  await expectAccessible(page, 'the API reference');

  expect(await page.evaluate('window.cspViolations')).toEqual([]);
  expect(problems).toEqual([]);
  expect(requests.length).toBeGreaterThanOrEqual(4);
  expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  expect(requests.map((url) => new URL(url).pathname)).toContain('/api/v1/openapi.json');
  await context.close();
}, 180_000);
