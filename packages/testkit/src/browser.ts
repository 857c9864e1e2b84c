import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { useHarness } from './use-harness.js';

/**
 * Browser tests drive Debian's Chromium (scripts/bootstrap.sh installs it) through
 * playwright-core: no browser is ever downloaded (docs/dashboard.md, "Browser tests").
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Where screenshot() writes: docs/screenshots/, which README and docs/dashboard.md
 * show, when UPDATE_SCREENSHOTS=1; otherwise a directory of the system's
 * temporary files, so that an ordinary test run leaves the committed images
 * (whose pixels differ in every run: ids, times) as they are.
 */
export const SCREENSHOTS_DIR =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : join(tmpdir(), 'leadhook-screenshots');

/** A headless Chromium. Close it (or use useBrowser, which does). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM_PATH}: run scripts/bootstrap.sh, which installs Debian's chromium`,
    );
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}

/** A test file's browser, launched before its first test and closed after its last. */
export function useBrowser(): Browser {
  return useHarness(() => launchBrowser(), { timeoutMs: 60_000 });
}

/**
 * What went wrong in the page while a test ran: console errors (a Content-Security-Policy
 * violation is one) and uncaught exceptions. Failed API answers a test provokes on
 * purpose (a 401) are console errors too: filter them in the test.
 */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[] }[];
}

let axeSource: Promise<string> | undefined;

/**
 * axe-core's accessibility checks over the page as it is now; throws naming every
 * serious or critical violation. axe is evaluated through the DevTools protocol,
 * which the page's CSP does not govern, so the page needs no 'unsafe-eval'.
 */
export async function expectAccessible(page: Page, what = page.url()): Promise<void> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(await axeSource);
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)',
  )) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length > 0) {
    const lines = serious.map(
      (v) =>
        `- ${v.impact} ${v.id}: ${v.help} (${v.helpUrl}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
    throw new Error(`accessibility violations in ${what}:\n${lines.join('\n')}`);
  }
}

/** A full-page PNG at SCREENSHOTS_DIR/<name>.png (docs/screenshots/ to refresh the docs' images): its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`screenshot name ${name}: use a-z, 0-9 and -`);
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
