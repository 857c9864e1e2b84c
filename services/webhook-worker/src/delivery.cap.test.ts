import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useHarness, waitFor } from '@leadhook/testkit';
import request from 'supertest';
import { Harness, type RunningWorker } from './testing/harness.js';

// One slow subscriber never delays another (docs/operations.md, "Webhook worker"):
// with WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION, a subscriber that hangs holds at
// most that many attempts in flight whatever its backlog, over every path that
// sends and every process, and a healthy subscriber of the same workers gets
// every delivery of a steady stream of activities without waiting behind it.

const h = useHarness(() => Harness.create({ poolMax: 4 }), {
  afterEach: (h) => h.stopWorkers(),
});

/** A subscriber that accepts connections and reads requests, and never answers. */
class HangingSubscriber {
  open = 0;
  maxOpen = 0;
  connections = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HangingSubscriber> {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const self = new HangingSubscriber(server, `http://127.0.0.1:${port}/hook`);
    server.on('connection', (socket) => {
      self.connections++;
      self.open++;
      self.maxOpen = Math.max(self.maxOpen, self.open);
      socket.on('close', () => {
        self.open--;
      });
    });
    return self;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** `count` leads of the account, ids `<tag>_lead_<n>`, inserted with SQL in one statement. */
async function leads(tag: string, count: number): Promise<string[]> {
  await h.pool.query(
    `INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                        first_name, last_name, fields, canonical, external_id,
                        tcpa_opt_in_token, tcpa_opt_in_url, received_at)
     SELECT $5 || '_lead_' || n, $1, $2, 'Acme Leads', $3, '+14155550100', 'ana@example.com',
            'Ana', 'Ruiz', '{}', '{}', 'ext-' || n, 'tok-' || n,
            'https://quotes.example.com/consent', now()
       FROM generate_series(1, $4) AS n`,
    [h.accountId, h.sourceId, h.playbookId, count, tag],
  );
  return Array.from({ length: count }, (_, i) => `${tag}_lead_${i + 1}`);
}

/**
 * `count` leads, each with one activity whose delivery to `subscriptionId` is
 * due, its chain's head (as a backlog left by an outage looks), inserted with
 * SQL in one statement each. The reconciler finds and enqueues them.
 */
async function dueBacklog(subscriptionId: string, count: number): Promise<void> {
  const tag = subscriptionId.slice(-8);
  await leads(tag, count);
  await h.pool.query(
    `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data,
                             occurred_at)
     SELECT $3 || '_act_' || n, $1, $3 || '_lead_' || n, 'event', 'started', 'backlog', '{}',
            now() - interval '1 minute'
       FROM generate_series(1, $2) AS n`,
    [h.accountId, count, tag],
  );
  await h.pool.query(
    `INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, activity_occurred_at,
                             next_attempt_at)
     SELECT $3 || '_dlv_' || n, $3 || '_act_' || n, $1, $3 || '_lead_' || n,
            now() - interval '1 minute', now() - interval '1 minute' + n * interval '1 ms'
       FROM generate_series(1, $2) AS n`,
    [subscriptionId, count, tag],
  );
}

function series(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Deliveries put back by the cap, over the workers, by path. */
async function cappedCounts(workers: RunningWorker[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = { delivery_job: 0, fan_out: 0 };
  for (const w of workers) {
    const { text } = await request(`http://127.0.0.1:${w.port}`).get('/metrics').expect(200);
    for (const path of Object.keys(counts)) {
      counts[path] =
        (counts[path] ?? 0) +
        series(text, 'leadhook_webhook_deliveries_capped_total', `path="${path}"`);
    }
  }
  return counts;
}

const CAP = 3;
const BACKLOG = 10_000;
/** The healthy subscriber's stream: about 50 activities a second for 3 s. */
const STREAM = 150;
const STREAM_INTERVAL_MS = 20;
/** How late a healthy delivery may arrive: generous, for a machine 2x slower and busy. */
const HEALTHY_BOUND_MS = 10_000;

describe('a subscriber that hangs, with a backlog, beside a healthy one', () => {
  it.each([
    { processes: 1, cap: String(CAP) },
    { processes: 2, cap: String(CAP) },
  ])(
    'holds at most the cap in flight over $processes process(es), and the healthy subscriber gets every delivery in time',
    async ({ processes, cap }) => {
      const hanging = await HangingSubscriber.start();
      try {
        const healthy = await h.subscriber();
        const hangingSub = await h.subscription({ url: hanging.url });
        await h.subscription({ url: healthy.url });
        await dueBacklog(hangingSub.id, BACKLOG);
        const streamLeads = await leads(`${hangingSub.id.slice(-8)}s`, STREAM);

        const env = {
          WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION: cap,
          WEBHOOK_TIMEOUT_MS: '4000',
          WEBHOOK_RETRY_SCHEDULE: '0,1s,1s,1s',
          // The reconciler enqueues the backlog 100 heads at a time, every second
          // (about its default pace: 500 every 5 s), not the harness's 500 every 200 ms.
          RECONCILE_BATCH_SIZE: '100',
        };
        // Few slots, so that a hung subscriber without a cap takes them all: 16
        // delivery jobs and 16 fan-outs per process, 16 send slots.
        const options = { concurrency: 16, sendSlots: 16, reconcileIntervalMs: 1000 };
        const first = await h.startWorker(env, options);
        const workers = [first];
        for (let i = 1; i < processes; i++) {
          workers.push(await h.startWorker(env, options, first.prefix));
        }
        // The backlog is being sent (to the hanging subscriber) before the stream starts.
        await waitFor(() => hanging.connections >= CAP, 20_000);

        // The stream: one activity of a lead of its own every 20 ms, through the
        // workers' own recorders in turn (the activity path's fast path).
        const recordedAt = new Map<string, number>();
        const started = Date.now();
        for (let i = 0; i < STREAM; i++) {
          const wait = started + i * STREAM_INTERVAL_MS - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const w = workers[i % workers.length] as RunningWorker;
          const at = Date.now();
          const result = await w.recorder.record({
            leadId: streamLeads[i] as string,
            type: 'event',
            label: 'started',
          });
          if (result.kind !== 'recorded') throw new Error(`not recorded: ${result.kind}`);
          recordedAt.set(result.activities.at(-1)?.id as string, at);
        }

        // Every healthy delivery arrives, each within the bound of its activity.
        await waitFor(() => new Set(healthy.ids()).size >= STREAM, HEALTHY_BOUND_MS + 5_000);
        const late = healthy.received
          .map((r) => ({
            id: String(r.headers['webhook-id']),
            lateMs: r.at - (recordedAt.get(String(r.headers['webhook-id'])) ?? r.at),
          }))
          .filter((r) => r.lateMs > HEALTHY_BOUND_MS);
        expect(late).toEqual([]);
        expect(new Set(healthy.ids())).toEqual(new Set(recordedAt.keys()));

        // The hanging subscriber never had more than the cap in flight, over every
        // process and path, though it was sent to all along: its attempts time out
        // (4 s) and its holders go on with its waiting deliveries. A stream that
        // arrived quickly can be done before the first of them timed out, so the
        // next connections are waited for, not assumed.
        await waitFor(() => hanging.connections > CAP, 20_000);
        expect(hanging.maxOpen).toBeLessThanOrEqual(CAP);
        // What it did not get a slot for was put back, not failed: no attempt spent.
        const capped = await cappedCounts(workers);
        expect((capped.delivery_job ?? 0) + (capped.fan_out ?? 0)).toBeGreaterThan(0);
        // Every attempt spent on it is a real try (an attempt row per request at
        // most): a delivery put back spends none.
        const { rows } = await h.pool.query<{ spent: number; rows: number }>(
          `SELECT coalesce(sum(d.attempt_count), 0)::int AS spent,
                (SELECT count(*)::int FROM attempts a JOIN deliveries x ON x.id = a.delivery_id
                  WHERE x.subscription_id = $1) AS rows
           FROM deliveries d WHERE d.subscription_id = $1`,
          [hangingSub.id],
        );
        expect(rows[0]?.spent).toBe(rows[0]?.rows);
        expect(rows[0]?.spent).toBeLessThanOrEqual(hanging.connections);
      } finally {
        await h.stopWorkers();
        await hanging.close();
      }
    },
    120_000,
  );
});
