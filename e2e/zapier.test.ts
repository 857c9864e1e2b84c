import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { createPrisma, type PrismaClient } from '@leadhook/db';
import { type ReceivedRequest, Subscriber } from '@leadhook/testkit';
import {
  type ApiClient,
  apiClient,
  createAccount,
  createPlaybookSource,
  useStartedService,
  validLead,
  waitFor,
} from './support.js';

/**
 * The Zapier app (integrations/zapier) run by zapier-platform-core's own app
 * tester against the real services: no Zapier server is reached; a local HTTP
 * server stands in for the Zap's hook URL (docs/automation.md).
 */

// The app is CommonJS with zapier-platform-core as its only dependency, as Zapier builds it.
const require = createRequire(import.meta.url);
const App = require('../integrations/zapier/index.js');
const zapier = require('../integrations/zapier/node_modules/zapier-platform-core');

const started = useStartedService('zapier', {
  CONTACT_HOURS: '00:00-24:00',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  API_RATE_LIMIT_PER_KEY: '100000',
  API_RATE_LIMIT_PER_ADDRESS: '100000',
});

type Bundle = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: the tester answers whatever the app's method returns.
const appTester: (method: unknown, bundle: Bundle) => Promise<any> = zapier.createAppTester(App);

let prisma: PrismaClient;
let api: ApiClient;
let authData: { base_url: string; api_key: string };
let sourceId: string;
let standIn: Subscriber;
/** What the stand-in for Zapier's hook URL answers. */
let answer = 200;

const trigger = App.triggers.new_activity.operation;
const createLead = App.creates.create_lead.operation;

/** Each key path of a JSON value (`a`, `a.b`, `a.b[]`), sorted: the shape of a payload. */
function keyPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => keyPaths(v, `${at}[]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${at}${k}`, ...keyPaths(v, `${at}${k}.`)]);
}
const shape = (value: unknown) => [...new Set(keyPaths(value))].sort();

/**
 * A delivery as Zapier hands it to perform: the parsed body, and the raw request
 * with each header named `Http-` + its name in title case.
 */
function asZapierSees(delivery: ReceivedRequest) {
  const headers = Object.fromEntries(
    Object.entries(delivery.headers).map(([name, value]) => [
      `Http-${name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())}`,
      String(value),
    ]),
  );
  return {
    cleanedRequest: JSON.parse(delivery.body),
    rawRequest: { method: 'POST', headers, content: delivery.body, querystring: '' },
  };
}

/** Deliveries of `label` for `leadId` the stand-in received. */
const received = (leadId: string, label: string) =>
  standIn.received.filter((r) => {
    const body = JSON.parse(r.body);
    return body.lead_id === leadId && body.activity_label === label;
  });

async function leadThroughTheApp(phone: string): Promise<string> {
  const { phone: _p, ...fields } = validLead({ phone });
  const result = await appTester(createLead.perform, {
    authData,
    inputData: { source_id: sourceId, phone, ...fields },
  });
  expect(result.status).toBe('accepted');
  return result.lead_id;
}

beforeAll(async () => {
  prisma = createPrisma({ databaseUrl: started.db.url, poolMax: 2 });
  const account = await createAccount(started.db.url, 'Zapier Co');
  api = apiClient(started.service.ports.API_PORT, account.api_key);
  authData = {
    base_url: `http://127.0.0.1:${started.service.ports.API_PORT}/`,
    api_key: account.api_key,
  };
  await createPlaybookSource(
    api,
    {
      name: 'Zap playbook',
      // The second step an hour away: a lead's play is still running when the test reports its outcome.
      steps: [
        { type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}' },
        { type: 'sms', delay_seconds: 3600, template: 'Still there, {{first_name}}?' },
      ],
    },
    'Zap source',
  );
  const sources = (await (await api('/marketing_sources')).json()) as {
    data: Array<{ id: string }>;
  };
  sourceId = sources.data[0]!.id;
  standIn = await Subscriber.start((_req, res) => {
    res.statusCode = answer;
    res.end();
  });
});

afterAll(async () => {
  // The app asks core not to patch Node's http modules: other test files in this
  // process send webhooks with them.
  expect((http as unknown as { patchedByZapier?: boolean }).patchedByZapier).toBeUndefined();
  expect((https as unknown as { patchedByZapier?: boolean }).patchedByZapier).toBeUndefined();
  await standIn?.close();
  await prisma?.$disconnect();
});

describe('the Zapier app', () => {
  it("passes zapier-platform-core's own validation", async () => {
    const handler = zapier.createAppHandler(App);
    const results = await new Promise((resolve, reject) =>
      handler({ command: 'validate' }, {}, (err: unknown, out: { results: unknown }) =>
        err ? reject(err) : resolve(out.results),
      ),
    );
    expect(results).toEqual([]);
  });

  it('connects with a good key, labelled with the account name; a bad key is an authentication error', async () => {
    const account = await appTester(App.authentication.test, { authData });
    expect(account.name).toBe('Zapier Co');
    expect(App.authentication.connectionLabel).toBe('{{name}}');
    // Zapier's own error for a connection to reconnect, with the API's words.
    await expect(
      appTester(App.authentication.test, { authData: { ...authData, api_key: 'lh_wrong' } }),
    ).rejects.toMatchObject({
      name: 'ExpiredAuthError',
      message: expect.stringContaining('did not accept the API key'),
    });
  });

  it("offers the source's own fields for Create Lead, and the catalog for the trigger", async () => {
    const fields = await appTester(createLead.inputFields[1], {
      authData,
      inputData: { source_id: sourceId },
    });
    const integration = (await (
      await api(`/marketing_sources/${sourceId}/integration`)
    ).json()) as {
      fields: Array<{ name: string; required: boolean }>;
    };
    expect(fields.map((f: { key: string; required: boolean }) => [f.key, f.required])).toEqual(
      integration.fields.map((f) => [f.name, f.required]),
    );
    const outcomes = await appTester(App.triggers.outcome_label_list.operation.perform, {
      authData,
    });
    expect(outcomes.map((o: { id: string }) => o.id)).toContain('do_not_contact');
    const playbooks = await appTester(App.triggers.playbook_list.operation.perform, { authData });
    expect(playbooks.map((p: { name: string }) => p.name)).toEqual(['Zap playbook']);
  });

  it('subscribe → a lead created through the app → the signed webhook → perform; unsubscribe stops it', async () => {
    const subscribeData = await appTester(trigger.performSubscribe, {
      authData,
      targetUrl: standIn.url,
      inputData: { events: ['first_message_sent'], outcomes: [] },
    });
    expect(subscribeData.id).toEqual(expect.any(String));
    const hooks = (await (await api('/hooks')).json()) as { data: Array<{ id: string }> };
    expect(hooks.data.map((h) => h.id)).toContain(subscribeData.id);

    const leadId = await leadThroughTheApp('(415) 555-0142');
    const [delivery] = await waitFor(async () => {
      const found = received(leadId, 'first_message_sent');
      return found.length > 0 ? found : undefined;
    });
    // Only what the hook chose: no "started" event of the same lead.
    expect(received(leadId, 'started')).toEqual([]);

    const seen = asZapierSees(delivery!);
    const performed = await appTester(trigger.perform, { authData, subscribeData, ...seen });
    expect(performed).toEqual([seen.cleanedRequest]);
    const samples = await appTester(trigger.performList, {
      authData,
      inputData: { events: ['first_message_sent'] },
    });
    expect(samples.length).toBeGreaterThan(0);
    expect(shape(performed[0])).toEqual(shape(samples[0]));

    // A body changed on the way is not passed on.
    const forged = {
      ...seen,
      rawRequest: { ...seen.rawRequest, content: seen.rawRequest.content.replace('Zap', 'Zip') },
    };
    await expect(
      appTester(trigger.perform, { authData, subscribeData, ...forged }),
    ).rejects.toThrow(/not signed/);

    // Find Lead finds it in another notation.
    const found = await appTester(App.searches.find_lead.operation.perform, {
      authData,
      inputData: { phone: '+1 415 555 0142' },
    });
    expect(found.map((l: { id: string }) => l.id)).toEqual([leadId]);

    await appTester(trigger.performUnsubscribe, { authData, subscribeData });
    const after = (await (await api('/hooks')).json()) as { data: Array<{ id: string }> };
    expect(after.data.map((h) => h.id)).not.toContain(subscribeData.id);
    // Unsubscribing twice (the Zap turned off after the hook was removed) is not an error.
    await appTester(trigger.performUnsubscribe, { authData, subscribeData });

    // The next lead's first message is recorded, and no delivery is made for the removed hook.
    const second = await leadThroughTheApp('(415) 555-0143');
    await waitFor(async () => {
      const detail = (await (await api(`/leads/${second}`)).json()) as {
        activities: Array<{ activity_label: string }>;
      };
      return detail.activities.some((a) => a.activity_label === 'first_message_sent')
        ? true
        : undefined;
    });
    expect(await prisma.delivery.count({ where: { subscriptionId: subscribeData.id } })).toBe(1);
    expect(received(second, 'first_message_sent')).toEqual([]);
  });

  it('a target answering 410 loses its hook', async () => {
    answer = 410;
    const subscribeData = await appTester(trigger.performSubscribe, {
      authData,
      targetUrl: standIn.url,
      inputData: { events: ['*'], outcomes: [] },
    });
    const leadId = await leadThroughTheApp('(415) 555-0144');
    await waitFor(async () => {
      const hooks = (await (await api('/hooks')).json()) as { data: Array<{ id: string }> };
      return hooks.data.some((h) => h.id === subscribeData.id) ? undefined : true;
    });
    expect(standIn.received.some((r) => JSON.parse(r.body).lead_id === leadId)).toBe(true);
  });

  it('reports an activity on a lead, and finds or creates', async () => {
    answer = 200;
    const leadId = await leadThroughTheApp('(415) 555-0145');
    const activity = await appTester(App.creates.report_activity.operation.perform, {
      authData,
      inputData: { lead_id: leadId, activity_type: 'outcome', outcome_label: 'qualified' },
    });
    expect(activity).toMatchObject({
      lead_id: leadId,
      activity_type: 'outcome',
      activity_label: 'qualified',
    });
    const none = await appTester(App.searches.find_lead.operation.perform, {
      authData,
      inputData: { email: 'NOBODY@example.com' },
    });
    expect(none).toEqual([]);
    expect(App.searchOrCreates.find_lead).toMatchObject({
      search: 'find_lead',
      create: 'create_lead',
    });
  });
});
