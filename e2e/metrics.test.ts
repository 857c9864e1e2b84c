import { documentedMetrics, PROCESSES, type Process } from '../infra/metrics-table.js';
import {
  apiClient,
  createAccount,
  createPlaybookSource,
  OPERATOR_PORT_SETTING,
  type Ports,
  useStartedService,
  validLead,
  waitFor,
} from './support.js';

/**
 * What an operator scrapes: the four real processes of `pnpm start` serve every
 * metric the "Metrics" table of docs/operations.md lists for them, with its type, and nothing
 * leadhook-specific that the table does not list. Intake counts the leads it
 * answered by result.
 */

/** Where an operator scrapes each process: intake's and the api's internal ports. */
const PORT_OF: Record<Process, keyof Ports> = OPERATOR_PORT_SETTING;

/** `# TYPE` lines of a scrape: metric name → type, without Node's defaults. */
function servedTypes(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const match of text.matchAll(/^# TYPE (leadhook_\S+) (\S+)$/gm)) {
    const [, name = '', type = ''] = match;
    if (/^leadhook_(process|nodejs)_/.test(name)) continue;
    types.set(name, type);
  }
  return types;
}

/**
 * The values each label of `name` takes in a scrape (a histogram's from its
 * `_count` series), `service` aside.
 */
function servedLabelValues(text: string, name: string, type: string): Record<string, string[]> {
  const series = type === 'histogram' ? `${name}_count` : name;
  const values: Record<string, Set<string>> = {};
  for (const match of text.matchAll(new RegExp(`^${series}\\{([^}]*)\\} `, 'gm'))) {
    for (const pair of (match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)) {
      const [, label = '', value = ''] = pair;
      if (label === 'service') continue;
      const seen = values[label] ?? new Set<string>();
      seen.add(value);
      values[label] = seen;
    }
  }
  return Object.fromEntries(Object.entries(values).map(([label, set]) => [label, [...set].sort()]));
}

const LEAD = validLead({ phone: '(415) 555-0199', tcpa_opt_in_token: 'tok-metrics' });

const started = useStartedService('metrics');
let postUrl: string;

const scrape = async (process: Process) =>
  (await fetch(`http://127.0.0.1:${started.service.ports[PORT_OF[process]]}/metrics`)).text();

beforeAll(async () => {
  const { api_key: apiKey } = await createAccount(started.db.url, 'Metrics');
  postUrl = await createPlaybookSource(
    apiClient(started.service.ports.API_PORT, apiKey),
    {
      name: 'One touch',
      steps: [{ type: 'sms', delay_seconds: 0, template: 'Hi {{first_name}}' }],
    },
    'Vendor M',
  );
}, 60_000);

describe('metrics of the running processes', () => {
  it('intake counts accepted, duplicate and rejected leads', async () => {
    const post = (body: unknown) =>
      fetch(postUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post(LEAD)).status).toBe(201);
    expect((await post(LEAD)).status).toBe(200);
    expect((await post({ ...LEAD, email: 'not an email' })).status).toBe(422);

    const text = await scrape('intake');
    expect(text).toMatch(/^leadhook_intake_leads_total\{result="accepted",service="intake"\} 1$/m);
    expect(text).toMatch(/^leadhook_intake_leads_total\{result="duplicate",service="intake"\} 1$/m);
    expect(text).toMatch(/^leadhook_intake_leads_total\{result="rejected",service="intake"\} 1$/m);
  });

  it('serves what docs/operations.md lists, with its type, and lists what they serve', async () => {
    const documented = documentedMetrics();
    expect(documented.length).toBeGreaterThan(10);
    for (const process of PROCESSES) {
      const expected = new Map(
        documented.filter((d) => d.from.includes(process)).map((d) => [d.name, d.type]),
      );
      // The workers' components register their metrics as they start.
      const served = await waitFor(async () => {
        const types = servedTypes(await scrape(process));
        return [...expected.keys()].every((name) => types.has(name)) ? types : undefined;
      }, 15_000).catch(async () => servedTypes(await scrape(process)));
      expect({ process, served: Object.fromEntries(served) }).toEqual({
        process,
        served: Object.fromEntries(expected),
      });
    }
  });

  it('serves exactly the label values docs/operations.md lists', async () => {
    const closed = documentedMetrics().filter(
      (d) => Object.keys(d.labels).length > 0 && Object.values(d.labels).every((v) => v !== null),
    );
    expect(closed.length).toBeGreaterThan(5);
    for (const process of PROCESSES) {
      const text = await scrape(process);
      for (const metric of closed.filter((d) => d.from.includes(process))) {
        expect({
          process,
          metric: metric.name,
          labels: servedLabelValues(text, metric.name, metric.type),
        }).toEqual({
          process,
          metric: metric.name,
          labels: metric.labels,
        });
      }
    }
  });
});
