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
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { AuthedAgent } from '../../api/src/testing/harness.js';
import { signIn, startDashboardApi } from './support.js';

const browser = useBrowser();
// Starting may build the dashboard first (tests/support.ts, ensureDashboardBuilt).
const api = useHarness(() => startDashboardApi(), { timeoutMs: 240_000 });

/** A browser test's own time, generous for a loaded machine. */
const BROWSER_TIMEOUT_MS = 60_000;

/** When the deferred step may run: 09:00 in Chicago (CST, UTC-6), the window of Texas. */
const DEFERRED_UNTIL = '2026-11-27T15:00:00.000Z';
const DEFERRAL_REASON = '07:30 Friday in America/Chicago is outside TX 09:00-21:00';

interface Fixture {
  apiKey: string;
  acmeId: string;
  brightId: string;
  jane: { id: string; national: string; e164: string };
  johnId: string;
  maryId: string;
}
let fixture: Fixture;

/** A lead through POST /marketing_sources/{id}/leads, as an automation sends one: its id. */
async function postLead(
  agent: AuthedAgent,
  sourceId: string,
  fields: Record<string, unknown>,
  status = 201,
): Promise<string> {
  const res = await agent
    .post(`/api/v1/marketing_sources/${sourceId}/leads`)
    .set('User-Agent', 'crm-sync/2.1')
    .send(validLead(fields));
  expect(res.status).toBe(status);
  return res.body.lead_id as string;
}

async function report(agent: AuthedAgent, leadId: string, body: Record<string, unknown>) {
  const res = await agent.post(`/api/v1/leads/${leadId}/activities`).send(body);
  expect(res.status).toBe(201);
}

// One account, made through the API: two sources, three leads (Jane's with a
// timeline and a duplicate, John's qualified, Mary's in the other source).
beforeAll(async () => {
  const owner = await api.harness.owner();
  const agent = owner.api;
  const acmeId = await api.harness.newSource(owner, { name: 'Acme Leads' });
  const brightId = await api.harness.newSource(owner, { name: 'Bright Forms' });
  const phone = randomPhone();
  const janeId = await postLead(agent, acmeId, {
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.com',
    phone: phone.national,
    external_id: 'crm-7781',
  });
  const johnId = await postLead(agent, acmeId, {
    first_name: 'John',
    last_name: 'Roe',
    email: 'john@example.com',
  });
  const maryId = await postLead(agent, brightId, {
    first_name: 'Mary',
    last_name: 'Major',
    email: 'mary@example.com',
  });
  // The same phone again, from the other source: a duplicate of Jane's lead.
  await postLead(agent, brightId, { phone: phone.e164, external_id: 'bf-2' }, 200);

  await report(agent, janeId, { activity_type: 'event', activity_label: 'message_sent' });
  await report(agent, janeId, {
    activity_type: 'event',
    activity_label: 'contact_deferred',
    // What the playbook worker writes (step.runner.ts, defer).
    data: { step: 1, until: DEFERRED_UNTIL, reason: DEFERRAL_REASON },
  });
  await report(agent, janeId, { activity_type: 'event', activity_label: 'call_attempted' });
  await report(agent, johnId, { activity_type: 'outcome', activity_label: 'qualified' });
  fixture = {
    apiKey: owner.apiKey,
    acmeId,
    brightId,
    jane: { id: janeId, ...phone },
    johnId,
    maryId,
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
  // A refused filter (422) or an unknown lead (404) is logged by the browser as a
  // failed resource: allowed.
  expect(errors.filter((e) => !/status of (422|404)/.test(e))).toEqual([]);
}, BROWSER_TIMEOUT_MS);

const leadsTable = () => page.getByRole('table', { name: 'Leads, newest first' });

/** The names in the list once it shows `count` rows, top to bottom. */
async function listedNames(count: number): Promise<string[]> {
  const rows: Locator = leadsTable().locator('tbody tr');
  await waitFor(async () => (await rows.count()) === count, 20_000);
  return rows.locator('td:first-child').allTextContents();
}

async function openLeads(query = '') {
  await signIn(page, api.baseUrl, fixture.apiKey);
  await page.goto(`${api.baseUrl}/dashboard/leads${query}`);
  await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
}

async function applyFilters() {
  await page.getByRole('button', { name: 'Apply filters' }).click();
}

describe('the Leads screen', () => {
  it(
    'lists the leads newest first, accessibly',
    async () => {
      await signIn(page, api.baseUrl, fixture.apiKey);
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Leads' })
        .click();
      await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
      await expect(listedNames(3)).resolves.toEqual(['Mary Major', 'John Roe', 'Jane Doe']);
      const jane = leadsTable().getByRole('row', { name: /Jane Doe/ });
      await expect(jane.textContent()).resolves.toContain(fixture.jane.e164);
      await expect(jane.textContent()).resolves.toContain('Acme Leads');
      await expect(
        leadsTable()
          .getByRole('row', { name: /John Roe/ })
          .textContent(),
      ).resolves.toContain('Qualified');
      await expectAccessible(page, 'the Leads screen');
      await screenshot(page, 'leads');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'filters by source, and a reload keeps the filter',
    async () => {
      await openLeads();
      await page.getByLabel('Source').selectOption({ label: 'Bright Forms' });
      await applyFilters();
      await expect(listedNames(1)).resolves.toEqual(['Mary Major']);
      expect(new URL(page.url()).searchParams.get('source_id')).toBe(fixture.brightId);

      await page.reload();
      await expect(listedNames(1)).resolves.toEqual(['Mary Major']);
      await expect(page.getByLabel('Source').inputValue()).resolves.toBe(fixture.brightId);

      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect(listedNames(3)).resolves.toHaveLength(3);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'finds a lead by its phone written in another notation',
    async () => {
      await openLeads();
      await page.getByLabel('Search by').selectOption('phone');
      // (512) 555-0147 was sent; +1 512.555.0147 finds it.
      const dotted = `+1 ${fixture.jane.e164.slice(2, 5)}.${fixture.jane.e164.slice(5, 8)}.${fixture.jane.e164.slice(8)}`;
      await page.getByLabel('Search', { exact: true }).fill(dotted);
      await applyFilters();
      await expect(listedNames(1)).resolves.toEqual(['Jane Doe']);
      expect(new URL(page.url()).searchParams.get('phone')).toBe(dotted);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'finds a lead by email in another case and by external id',
    async () => {
      await openLeads();
      await page.getByLabel('Search by').selectOption('email');
      await page.getByLabel('Search', { exact: true }).fill('Jane.Doe@Example.COM');
      await applyFilters();
      await expect(listedNames(1)).resolves.toEqual(['Jane Doe']);

      await page.getByLabel('Search by').selectOption('external_id');
      await page.getByLabel('Search', { exact: true }).fill('crm-7781');
      await applyFilters();
      await expect(listedNames(1)).resolves.toEqual(['Jane Doe']);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'says in words, next to the search, that a phone is not dialable',
    async () => {
      await openLeads();
      await page.getByLabel('Search by').selectOption('phone');
      await page.getByLabel('Search', { exact: true }).fill('12');
      await applyFilters();
      const search = page.getByLabel('Search', { exact: true });
      await waitFor(async () => (await search.getAttribute('aria-invalid')) === 'true', 20_000);
      const describedBy = (await search.getAttribute('aria-describedby')) ?? '';
      const problem = page.locator(`#${describedBy.split(' ')[0]}`);
      await expect(problem.getByRole('alert').textContent()).resolves.toMatch(/\w/);
      await expectAccessible(page, 'the Leads screen with a refused filter');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'filters from the keyboard: Enter in the search applies it and keeps focus there',
    async () => {
      await openLeads();
      await listedNames(3);
      await page.getByLabel('Search by').selectOption('external_id');
      await page.getByLabel('Search', { exact: true }).focus();
      await page.keyboard.type('crm-7781');
      await page.keyboard.press('Enter');
      await expect(listedNames(1)).resolves.toEqual(['Jane Doe']);
      await expect(page.evaluate('document.activeElement?.id')).resolves.toBe('filter-search');
      // Back returns to the whole list, and the field shows the URL again.
      await page.goBack();
      await expect(listedNames(3)).resolves.toHaveLength(3);
      await expect(page.getByLabel('Search', { exact: true }).inputValue()).resolves.toBe('');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'filters by outcome',
    async () => {
      await openLeads();
      await page.getByLabel('Outcome').selectOption('qualified');
      await applyFilters();
      await expect(listedNames(1)).resolves.toEqual(['John Roe']);
      expect(new URL(page.url()).searchParams.get('outcome')).toBe('qualified');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'loads the next page with Load more, never the whole list at once',
    async () => {
      const requested: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/v1/leads')) requested.push(request.url());
      });
      await openLeads('?limit=2');
      await expect(listedNames(2)).resolves.toEqual(['Mary Major', 'John Roe']);
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect(listedNames(3)).resolves.toEqual(['Mary Major', 'John Roe', 'Jane Doe']);
      await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
      // Keyboard focus went to the first lead of the new page, not lost with the button.
      await waitFor(
        async () => (await page.evaluate('document.activeElement?.textContent')) === 'Jane Doe',
      );
      expect(requested.every((url) => new URL(url).searchParams.get('limit') === '2')).toBe(true);
      expect(requested.some((url) => new URL(url).searchParams.get('cursor'))).toBe(true);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'tells a new account what to do next when it has no leads',
    async () => {
      const { api_key } = await api.harness.newAccount('Empty Co');
      await signIn(page, api.baseUrl, api_key);
      await page.goto(`${api.baseUrl}/dashboard/leads`);
      await page.getByText('No leads yet.').waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Marketing Sources' }).waitFor();
      await expect(page.getByRole('main').textContent()).resolves.toContain('post URL');
    },
    BROWSER_TIMEOUT_MS,
  );
});

describe("a lead's page", () => {
  it(
    'shows its fields, consent, duplicates and timeline in order, with the deferral in words',
    async () => {
      await openLeads();
      await leadsTable().getByRole('link', { name: 'Jane Doe' }).click();
      await page.getByRole('heading', { name: 'Jane Doe', level: 1 }).waitFor();
      expect(page.url()).toBe(`${api.baseUrl}/dashboard/leads/${fixture.jane.id}`);

      const fields = page.getByRole('definition');
      await waitFor(async () => (await fields.count()) > 0);
      const facts = await page.locator('dl.lead-facts').allTextContents();
      const all = facts.join('\n');
      expect(all).toContain(fixture.jane.e164);
      expect(all).toContain('jane.doe@example.com');
      expect(all).toContain('Acme Leads');
      expect(all).toContain('crm-7781');

      const consent = page.getByRole('region', { name: 'Consent evidence' });
      const consentText = (await consent.textContent()) ?? '';
      expect(consentText).toContain('a1b2c3d4-e5f6-4789-abcd-ef0123456789');
      expect(consentText).toContain('Jornaya LeadiD');
      expect(consentText).toContain('https://quotes.example.com/auto?step=consent');
      expect(consentText).toContain('crm-sync/2.1');

      const duplicates = page.getByRole('region', { name: 'Duplicates' });
      await expect(duplicates.textContent()).resolves.toContain('Bright Forms');
      await expect(duplicates.textContent()).resolves.toContain('bf-2');

      const timeline = page.getByRole('list', { name: 'Activity timeline, oldest first' });
      const items = timeline.getByRole('listitem');
      await expect(
        items.evaluateAll((li) => li.map((e) => e.getAttribute('data-label'))),
      ).resolves.toEqual(['message_sent', 'contact_deferred', 'call_attempted']);
      await expect(items.nth(0).textContent()).resolves.toContain('Message sent');
      const deferral = (await items.nth(1).textContent()) ?? '';
      expect(deferral).toMatch(
        /Waiting for the contact window: 09:00 local time( on [^(]+)? \(America\/Chicago\), Texas rules/,
      );
      expect(deferral).toContain(DEFERRAL_REASON);
      await expect(items.nth(1).locator('time').getAttribute('datetime')).resolves.toMatch(/Z$/);

      await expectAccessible(page, "a lead's page");
      await screenshot(page, 'lead');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'says in words that a lead is not the account’s',
    async () => {
      await signIn(page, api.baseUrl, fixture.apiKey);
      await page.goto(`${api.baseUrl}/dashboard/leads/lead_00000000000000000000000000`);
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'There is no lead with this id in your account.',
      );
      await page.getByRole('link', { name: 'Back to all leads' }).click();
      await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    },
    BROWSER_TIMEOUT_MS,
  );
});
