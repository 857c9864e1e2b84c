import {
  expectAccessible,
  pageErrors,
  randomPhone,
  screenshot,
  useBrowser,
  useHarness,
  validLead,
  waitFor,
} from '@leadhook/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import type { AuthedAgent } from '../../api/src/testing/harness.js';
import { signIn, startDashboardApi } from './support.js';

const browser = useBrowser();
// Starting may build the dashboard first (tests/support.ts, ensureDashboardBuilt).
const api = useHarness(() => startDashboardApi(), { timeoutMs: 240_000 });

/** A browser test's own time, generous for a loaded machine. */
const BROWSER_TIMEOUT_MS = 90_000;

interface Fixture {
  apiKey: string;
  agent: AuthedAgent;
  /** The phone of a lead that replied STOP, and where its reply is. */
  stopped: { phone: string; leadId: string; replyId: string };
}

/** Added and removed twice with a key revoked since, then listed again (a complaint). */
const RELISTED = '+15125550160';
let fixture: Fixture;

// One account, made through the API: a lead that replied STOP, which put its phone
// on the list (docs/api.md, "Opt-out replies"), and a phone a CRM's key added and
// removed before the key was revoked, listed again since.
beforeAll(async () => {
  const owner = await api.harness.owner();
  const agent = owner.api;
  const sourceId = await api.harness.newSource(owner, { name: 'Acme Leads' });
  const phone = randomPhone();
  const lead = await agent
    .post(`/api/v1/marketing_sources/${sourceId}/leads`)
    .send(validLead({ first_name: 'Stella', phone: phone.national }));
  expect(lead.status).toBe(201);
  const reply = await agent.post(`/api/v1/leads/${lead.body.lead_id}/activities`).send({
    activity_type: 'event',
    activity_label: 'message_received',
    data: { body: 'STOP' },
  });
  expect(reply.status).toBe(201);

  const crm = await agent.post('/api/v1/account/api_keys').send({ name: 'Old CRM sync' });
  expect(crm.status).toBe(201);
  const crmAgent = api.harness.as(crm.body.api_key);
  // Twice: the lookup then speaks of the last removal.
  for (let i = 0; i < 2; i++) {
    expect((await crmAgent.post('/api/v1/suppressions').send({ phone: RELISTED })).status).toBe(
      201,
    );
    expect(
      (await crmAgent.delete(`/api/v1/suppressions/${encodeURIComponent(RELISTED)}`)).status,
    ).toBe(204);
  }
  expect((await agent.delete(`/api/v1/account/api_keys/${crm.body.id}`)).status).toBe(204);
  const relisted = await agent
    .post('/api/v1/suppressions')
    .send({ phone: RELISTED, reason: 'complaint' });
  expect(relisted.status).toBe(201);

  fixture = {
    apiKey: owner.apiKey,
    agent,
    stopped: { phone: phone.e164, leadId: lead.body.lead_id, replyId: reply.body.id },
  };
}, BROWSER_TIMEOUT_MS);

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
  // A refused phone or import (422) and a phone not on the list (404) are logged by
  // the browser as failed resources: allowed.
  expect(errors.filter((e) => !/status of (422|404)/.test(e))).toEqual([]);
}, BROWSER_TIMEOUT_MS);

const entriesTable = () =>
  page.getByRole('table', { name: /^Phones (on the do-not-contact list|added by import)/ });
const row = (phone: string) => entriesTable().locator(`tr[data-phone="${phone}"]`);
const removalsTable = () => page.getByRole('table', { name: /newest first$/ });
const removalRows = () => removalsTable().locator('tbody tr');
const views = () => page.getByRole('navigation', { name: 'Do not contact views' });
const listHeading = () => page.locator('#dnc-list-title');
const focusedId = () => page.evaluate('document.activeElement?.id');
const notice = () => page.locator('p.notice[role="status"]');
/** The phone's entry as the API has it: its status (200 listed, 404 not). */
const listed = async (phone: string) =>
  (await fixture.agent.get(`/api/v1/suppressions/${encodeURIComponent(phone)}`)).status;

/** Signs in and opens Do not contact from the navigation. */
async function openDoNotContact(apiKey: string) {
  await signIn(page, api.baseUrl, apiKey);
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Do not contact' })
    .click();
  await page.getByRole('heading', { name: 'Do not contact', level: 1 }).waitFor();
  expect(page.url()).toBe(`${api.baseUrl}/dashboard/do-not-contact`);
}

describe('the Do not contact screen', () => {
  it(
    'adds, looks up, imports (refused, then accepted), filters and removes phones',
    async () => {
      const { stopped } = fixture;
      await openDoNotContact(fixture.apiKey);

      // The STOP reply's phone, with a link to the reply in its lead's timeline.
      const stopRow = row(stopped.phone);
      await stopRow.waitFor();
      await expect(stopRow.locator('td').first().textContent()).resolves.toBe('Opted out');
      const timelineLink = stopRow.getByRole('link', {
        name: `Lead's timeline for ${stopped.phone}`,
      });
      await expect(timelineLink.getAttribute('href')).resolves.toBe(
        `/dashboard/leads/${stopped.leadId}#activity-${stopped.replyId}`,
      );
      await expectAccessible(page, 'Do not contact');

      // Add: a number that is not one is said at the field, then a phone with a note.
      await page.getByRole('button', { name: 'Add a phone' }).click();
      const add = page.getByRole('dialog', { name: 'Add a phone to the do-not-contact list' });
      await add.getByLabel('Phone', { exact: true }).fill('12');
      await add.getByRole('button', { name: 'Add to the list' }).click();
      const addPhone = add.getByLabel('Phone', { exact: true });
      await waitFor(async () => (await addPhone.getAttribute('aria-invalid')) === 'true');
      await expect(add.locator('#dnc-add-phone-error').textContent()).resolves.toBe(
        'Not a phone number.',
      );
      await expectAccessible(page, 'the add dialog with a refused phone');
      await addPhone.fill('(512) 555-0142');
      await add.getByLabel('Reason').selectOption('complaint');
      await add.getByLabel('Note (optional)').fill('Called support, ticket 4812');
      await add.getByRole('button', { name: 'Add to the list' }).click();
      await add.waitFor({ state: 'hidden' });
      await expect(notice().textContent()).resolves.toBe(
        '+15125550142 is on the do-not-contact list now: no play will text or call it.',
      );
      const added = row('+15125550142');
      await added.waitFor();
      await expect(added.textContent()).resolves.toMatch(
        /Complaint.*Added with the API key “default”.*Called support, ticket 4812/,
      );
      await expect(listed('+15125550142')).resolves.toBe(200);

      // Look up: in another notation, one not listed, and one that is no number.
      const lookup = page.getByRole('form', { name: 'Look up a phone' });
      const answer = page.locator('.dnc-answer-region');
      await lookup.getByLabel('Phone').fill('512.555.0142');
      await lookup.getByRole('button', { name: 'Look up' }).click();
      await answer.getByText('+15125550142 is on the do-not-contact list, since').waitFor();
      await expect(answer.textContent()).resolves.toMatch(
        /Why: A complaint, added with the API key “default”.*Note: Called support, ticket 4812/,
      );
      await lookup.getByLabel('Phone').fill('+1 512 555 0199');
      await lookup.getByRole('button', { name: 'Look up' }).click();
      await answer
        .getByText('+1 512 555 0199 is not on the do-not-contact list: plays may text and call it.')
        .waitFor();
      // A phone taken off before and listed again says so, and the key is revoked since.
      await lookup.getByLabel('Phone').fill(RELISTED);
      await lookup.getByRole('button', { name: 'Look up' }).click();
      await answer.getByText(`${RELISTED} is on the do-not-contact list, since`).waitFor();
      await expect(answer.locator('.dnc-past').textContent()).resolves.toMatch(
        /^It was taken off the list before \(last on .+, with an API key revoked since\) and listed again since\. See every removal of \+15125550160$/,
      );
      await lookup.getByLabel('Phone').fill('call me');
      await lookup.getByRole('button', { name: 'Look up' }).click();
      await waitFor(
        async () => (await lookup.getByLabel('Phone').getAttribute('aria-invalid')) === 'true',
      );
      await expect(lookup.locator('#dnc-lookup-phone-error').textContent()).resolves.toBe(
        'Not a phone number.',
      );

      // Import: a bad line refuses it all, said by line; nothing is stored.
      await page.getByRole('button', { name: 'Import phones' }).click();
      const importing = page.getByRole('dialog', {
        name: 'Import phones to the do-not-contact list',
      });
      const box = importing.getByLabel('Phones', { exact: true });
      await box.fill('512-555-0150\nnot a phone\n+15125550142');
      await importing.getByRole('button', { name: 'Import', exact: true }).click();
      const refusal = importing.getByRole('alert');
      await refusal.getByText('Nothing was imported: 1 line was refused.').waitFor();
      await expect(refusal.getByRole('listitem').textContent()).resolves.toContain(
        'Line 2: not a phone number. not a phone',
      );
      await expect(box.getAttribute('aria-invalid')).resolves.toBe('true');
      await expectAccessible(page, 'a refused import');
      await screenshot(page, 'do-not-contact-import-refused');
      await expect(listed('+15125550150')).resolves.toBe(404);
      // "Show line 2" selects it in the box, to correct it there.
      await refusal.getByRole('button', { name: 'Show line 2' }).click();
      await expect(
        box.evaluate((field: { value: string; selectionStart: number; selectionEnd: number }) =>
          field.value.slice(field.selectionStart, field.selectionEnd),
        ),
      ).resolves.toBe('not a phone');

      // A CRM's export, chosen as a file: its phone column is read.
      await importing.getByLabel('Or choose a CSV file').setInputFiles({
        name: 'crm-export.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          'Name,Phone Number,Email\r\nAnn,512-555-0150,ann@example.com\r\n' +
            'Bo,(512) 555-0151,bo@example.com\r\nCy,+15125550142,cy@example.com\r\n',
        ),
      });
      await importing
        .getByText('crm-export.csv (4 lines) is in the box above: check it, then choose Import.')
        .waitFor();
      await expect(box.inputValue()).resolves.toContain('Ann,512-555-0150');
      await importing.getByRole('button', { name: 'Import', exact: true }).click();
      await importing.waitFor({ state: 'hidden' });
      let importId = '';
      await waitFor(async () => {
        const said =
          /^Imported 2 phones; 1 phone was already listed or repeated \(import (imp_[0-9a-z]{26})\)\. Show this import's phones$/.exec(
            (await notice().textContent()) ?? '',
          );
        importId = said?.[1] ?? '';
        return said !== null;
      });
      await row('+15125550151').waitFor();
      await expect(row('+15125550150').textContent()).resolves.toContain(
        `Import ${importId}, with the API key “default”`,
      );

      // "Show this import's phones" (the notice's): the list is what it added, in the
      // address, so a reload keeps it; focus goes to the heading that says so.
      const onlyImport = `${api.baseUrl}/dashboard/do-not-contact?import_id=${importId}`;
      await notice().getByRole('link', { name: "Show this import's phones" }).click();
      await listHeading().getByText(`Phones added by import ${importId}`).waitFor();
      await waitFor(async () => (await entriesTable().locator('tbody tr').count()) === 2);
      expect(page.url()).toBe(onlyImport);
      await waitFor(async () => (await focusedId()) === 'dnc-list-title');
      // Its rows need no link to the import they are filtered to.
      await expect(entriesTable().getByRole('link').count()).resolves.toBe(0);
      await expectAccessible(page, "an import's phones");
      await page.reload();
      await waitFor(async () => (await entriesTable().locator('tbody tr').count()) === 2);
      await expect(row('+15125550142').count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Clear the import filter' }).click();
      await row(stopped.phone).waitFor();
      expect(page.url()).toBe(`${api.baseUrl}/dashboard/do-not-contact`);
      await waitFor(async () => (await focusedId()) === 'dnc-list-title');
      // A row's link to its import, and Back to the whole list.
      await row('+15125550151').getByRole('link', { name: "Show this import's phones" }).click();
      await waitFor(async () => page.url() === onlyImport);
      await waitFor(async () => (await entriesTable().locator('tbody tr').count()) === 2);
      await page.goBack();
      await row(stopped.phone).waitFor();
      await expect(
        page.getByRole('button', { name: 'Clear the import filter' }).count(),
      ).resolves.toBe(0);
      // An address whose import id is none is said so, with the way out.
      await page.goto(`${api.baseUrl}/dashboard/do-not-contact?import_id=imp_nope`);
      await page
        .getByRole('alert')
        .getByText('“imp_nope” in the address is not an import id')
        .waitFor();
      await page.getByRole('button', { name: 'Clear the import filter' }).click();
      await row(stopped.phone).waitFor();

      // Filter by reason: in the address, so a reload keeps it.
      await page.getByLabel('Reason').selectOption('imported');
      await waitFor(async () => (await entriesTable().locator('tbody tr').count()) === 2);
      expect(page.url()).toBe(`${api.baseUrl}/dashboard/do-not-contact?reason=imported`);
      await page.reload();
      await waitFor(async () => (await entriesTable().locator('tbody tr').count()) === 2);
      await expect(page.getByLabel('Reason').inputValue()).resolves.toBe('imported');
      await page.getByLabel('Reason').selectOption('manual');
      await page.getByText('No phone is listed as “Added by hand”.').waitFor();
      await page.getByLabel('Reason').selectOption('');
      await row(stopped.phone).waitFor();
      await screenshot(page, 'do-not-contact');

      // Remove: confirmed in a dialog that says the phone may be contacted again.
      const removeButton = page.getByRole('button', { name: 'Remove +15125550150' });
      await removeButton.click();
      const confirm = page.getByRole('dialog', {
        name: 'Remove +15125550150 from the do-not-contact list?',
      });
      await expect(confirm.textContent()).resolves.toContain(
        'This phone may be contacted again by future plays',
      );
      await expectAccessible(page, 'the removal confirmation');
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'hidden' });
      await expect(listed('+15125550150')).resolves.toBe(200);
      await removeButton.click();
      await confirm.getByRole('button', { name: 'Remove from the list' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await expect(notice().textContent()).resolves.toBe(
        '+15125550150 is off the do-not-contact list: future plays may text and call it. The removal is recorded under Removed phones.',
      );
      await waitFor(async () => (await row('+15125550150').count()) === 0);
      await waitFor(
        async () => (await page.evaluate('document.activeElement?.id')) === 'dnc-list-title',
      );
      await expect(listed('+15125550150')).resolves.toBe(404);

      // An opted-out phone's removal warns that the person revoked consent.
      await page.getByRole('button', { name: `Remove ${stopped.phone}` }).click();
      const optedOut = page.getByRole('dialog', {
        name: `Remove ${stopped.phone} from the do-not-contact list?`,
      });
      await optedOut.getByText('This person opted out.').waitFor();
      await optedOut.getByRole('button', { name: 'Cancel' }).click();
      await optedOut.waitFor({ state: 'hidden' });

      // Removed phones (the notice's link): newest first, each with the key that
      // removed it (a revoked one said so) and the entry it had.
      await notice().getByRole('link', { name: 'Removed phones' }).click();
      await page.getByRole('heading', { name: 'Removed phones', level: 2 }).waitFor();
      expect(page.url()).toBe(`${api.baseUrl}/dashboard/do-not-contact?view=removed`);
      await expect(
        views().getByRole('link', { name: 'Removed phones' }).getAttribute('aria-current'),
      ).resolves.toBe('page');
      await waitFor(async () => (await removalRows().count()) === 3);
      await expect(page.locator('#dnc-removed-title').textContent()).resolves.toBe(
        'Removed phones',
      );
      await expect(removalRows().nth(0).getAttribute('data-phone')).resolves.toBe('+15125550150');
      await expect(removalRows().nth(0).textContent()).resolves.toMatch(
        /^\+15125550150.+UTCThe API key “default” \(lh_[^)]+…\)Imported.+UTC$/,
      );
      await expect(removalRows().nth(1).textContent()).resolves.toMatch(
        /^\+15125550160.+UTCAn API key revoked sinceAdded by hand.+UTC$/,
      );
      await expectAccessible(page, 'the removed phones');
      await screenshot(page, 'do-not-contact-removed');

      // One phone's removals, in any notation; a number that is none is said at the field.
      const findRemovals = page.getByRole('form', { name: "Find a phone's removals" });
      await findRemovals.getByLabel('Phone').fill('call me');
      await findRemovals.getByRole('button', { name: 'Show its removals' }).click();
      await findRemovals
        .locator('#dnc-removed-phone-error')
        .getByText('Not a phone number.')
        .waitFor();
      await waitFor(async () => (await focusedId()) === 'dnc-removed-phone');
      await findRemovals.getByLabel('Phone').fill('(512) 555-0150');
      await findRemovals.getByRole('button', { name: 'Show its removals' }).click();
      await page.getByRole('heading', { name: 'Removals of +15125550150', level: 2 }).waitFor();
      await waitFor(async () => (await removalRows().count()) === 1);
      await page.reload();
      await page.getByRole('heading', { name: 'Removals of +15125550150', level: 2 }).waitFor();
      await findRemovals.getByRole('button', { name: 'Show every removal' }).click();
      await waitFor(async () => (await removalRows().count()) === 3);
      expect(page.url()).toBe(`${api.baseUrl}/dashboard/do-not-contact?view=removed`);

      // The lookup of a removed phone says when and by which key it was taken off.
      await lookup.getByLabel('Phone').fill('512-555-0150');
      await lookup.getByRole('button', { name: 'Look up' }).click();
      await answer.getByText('512-555-0150 is not on the do-not-contact list').waitFor();
      await expect(answer.locator('.dnc-past').textContent()).resolves.toMatch(
        /^It was taken off the list on .+ UTC, with the API key “default” \(lh_[^)]+…\)\. It had been listed since .+ UTC \(Imported\)\. See the removal of \+15125550150$/,
      );

      // The STOP reply, on its lead's timeline (from Listed phones).
      await views().getByRole('link', { name: 'Listed phones' }).click();
      await row(stopped.phone).waitFor();
      await timelineLink.click();
      await page.getByRole('heading', { name: 'Stella Doe', level: 1 }).waitFor();
      const replyAnchor = `activity-${stopped.replyId}`;
      await waitFor(
        async () => (await page.evaluate('document.activeElement?.id')) === replyAnchor,
      );
      await expect(page.locator(`#${replyAnchor}`).getAttribute('data-label')).resolves.toBe(
        'message_received',
      );
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'says what an empty list is for, and pages a long one (and its removals) with the API’s cursor',
    async () => {
      const { api_key } = await api.harness.newAccount('Empty List Co');
      await openDoNotContact(api_key);
      await page.getByText('No phone on the list yet').waitFor();
      await expectAccessible(page, 'an empty do-not-contact list');
      await views().getByRole('link', { name: 'Removed phones' }).click();
      await page.getByText('No phone has been taken off the list').waitFor();
      await views().getByRole('link', { name: 'Listed phones' }).click();
      await page.getByText('No phone on the list yet').waitFor();

      // 51 phones, one more than a page.
      const phones = Array.from({ length: 51 }, (_, i) => `+1512556${String(1000 + i)}`);
      const imported = await api.harness
        .as(api_key)
        .post('/api/v1/suppressions/import')
        .send(phones);
      expect(imported.body).toMatchObject({ imported: 51, already_listed: 0 });
      await page.reload();
      await waitFor(async () => (await entriesTable().locator('tbody tr').count()) === 50);
      const pages = page.getByRole('navigation', { name: 'Pages of the do-not-contact list' });
      await pages.getByRole('button', { name: 'Next page' }).click();
      await waitFor(async () => (await entriesTable().locator('tbody tr').count()) === 1);
      await row(phones[50]!).waitFor();
      await expect(pages.getByRole('button', { name: 'Next page' }).isDisabled()).resolves.toBe(
        true,
      );
      await pages.getByRole('button', { name: 'Previous page' }).click();
      await row(phones[0]!).waitFor();

      // Removed, one after another: the newest removal comes first, the first one last.
      const account = api.harness.as(api_key);
      for (const phone of phones) {
        const removed = await account.delete(`/api/v1/suppressions/${encodeURIComponent(phone)}`);
        expect(removed.status).toBe(204);
      }
      await views().getByRole('link', { name: 'Removed phones' }).click();
      await waitFor(async () => (await removalRows().count()) === 50);
      await expect(removalRows().first().getAttribute('data-phone')).resolves.toBe(phones[50]);
      const removedPages = page.getByRole('navigation', { name: 'Pages of the removed phones' });
      await removedPages.getByRole('button', { name: 'Next page' }).click();
      await waitFor(async () => (await removalRows().count()) === 1);
      await expect(removalRows().first().getAttribute('data-phone')).resolves.toBe(phones[0]);
      await removedPages.getByRole('button', { name: 'Previous page' }).click();
      await waitFor(async () => (await removalRows().count()) === 50);
    },
    BROWSER_TIMEOUT_MS,
  );
});
