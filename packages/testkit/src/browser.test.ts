import { expectAccessible, pageErrors, useBrowser } from './browser.js';
import { waitFor } from './wait.js';

const browser = useBrowser();

describe('expectAccessible', () => {
  it('passes a labelled form and names the serious violations of an unlabelled one', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(
        '<html lang="en"><title>ok</title><main><label for="k">API key</label><input id="k"></main></html>',
      );
      await expectAccessible(page, 'a labelled form');
      await page.setContent(
        '<html lang="en"><title>bad</title><main><input id="k"><button></button></main></html>',
      );
      await expect(expectAccessible(page, 'an unlabelled form')).rejects.toThrow(
        /accessibility violations in an unlabelled form:[\s\S]*(label|button-name)/,
      );
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe('pageErrors', () => {
  it('collects console errors and uncaught exceptions', async () => {
    const page = await browser.newPage();
    try {
      const errors = pageErrors(page);
      await page.setContent('<script>console.error("boom"); throw new Error("bang")</script>');
      await waitFor(() => errors.length >= 2);
      expect(errors).toEqual(expect.arrayContaining(['boom', 'uncaught: bang']));
    } finally {
      await page.close();
    }
  }, 60_000);
});
