import { Agent, request } from 'node:http';
import { Subscriber as LocalSubscriber } from '@leadhook/testkit';
import { validLead, waitFor } from '../support.js';

/**
 * The two outside parties of a fault test: a seller posting leads at a steady
 * rate (every answer recorded, every 201's lead id kept), and a subscriber that
 * records every webhook it is sent.
 */

/** Lead n of a stream: a valid lead with a phone and external_id of its own. */
export function leadBody(n: number, tag: string): Record<string, string> {
  const exchange = 200 + Math.floor(n / 10_000);
  const line = String(n % 10_000).padStart(4, '0');
  return validLead({
    first_name: 'Fault',
    last_name: `Lead${n}`,
    email: `fault${n}@example.com`,
    phone: `+1415${exchange}${line}`,
    tcpa_opt_in_token: `tok-${n}`,
    external_id: `${tag}-${n}`,
  });
}

/** Leads of every stream of this test file are distinct (phones included): not duplicates. */
let nextLead = 0;

/** What became of one POST: its HTTP status, or the socket error that ended it. */
export type Answer = number | 'error';

export interface StreamOptions {
  /** The seller's post_url; read before each request (intake may move ports). */
  url: () => string;
  /** Leads per second. */
  rate: number;
  /** external_id prefix, so the stream's leads can be found in PostgreSQL. */
  tag: string;
  /** A request unanswered for this long is abandoned (counted as an error). */
  requestTimeoutMs?: number;
}

/**
 * Posts distinct leads at `rate` per second over keep-alive connections until
 * stopped, whatever the answers. Requests are paced from the start time, not
 * chained, so a slow or absent intake does not lower the offered load.
 */
export class LeadStream {
  /** Lead ids of every 201, in answer order. */
  readonly accepted: string[] = [];
  /** external_id → the answer it got. */
  readonly answers = new Map<string, Answer>();
  /** Socket errors by message (what 'error' answers were). */
  readonly errors = new Map<string, number>();
  /** Every request: when it was sent and answered, and how. */
  readonly log: Array<{ externalId: string; sentAt: number; answeredAt: number; answer: Answer }> =
    [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private sent = 0;
  private sendingMs = 0;
  /** Pacing: `base` requests were sent before `rateFrom`, then `rate` per second. */
  private base = 0;
  private rateFrom = 0;
  private rate = 0;
  private startedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: StreamOptions) {}

  start(): void {
    this.startedAt = Date.now();
    this.rateFrom = this.startedAt;
    this.rate = this.options.rate;
    this.timer = setInterval(() => this.tick(), 10);
  }

  /** Stops sending and waits for every request in flight to end. */
  async stop(): Promise<void> {
    if (this.timer) {
      const now = Date.now();
      this.tick(now);
      clearInterval(this.timer);
      this.timer = undefined;
      this.sendingMs = now - this.startedAt;
    }
    await Promise.all([...this.inFlight]);
    this.agent.destroy();
  }

  /**
   * Until `count` leads were accepted: a fault test's load is going through, and
   * there is work in flight when its fault lands. Counted, not assumed from a
   * time at the rate, which a busy machine does not keep.
   */
  async untilAccepted(count: number, timeoutMs = 120_000): Promise<void> {
    await waitFor(async () => (this.accepted.length >= count ? true : undefined), timeoutMs);
  }

  /** Leads sent per second while sending, on average (after stop). */
  get achievedRate(): number {
    return this.sent / (this.sendingMs / 1000);
  }

  /** How many requests were sent. */
  get count(): number {
    return this.sent;
  }

  /** Answers by status ('error' for socket errors and timeouts). */
  tally(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const answer of this.answers.values()) {
      counts[String(answer)] = (counts[String(answer)] ?? 0) + 1;
    }
    for (const [error, n] of this.errors) counts[`error:${error}`] = n;
    return counts;
  }

  /** Answers by status of the requests sent (or answered) in [from, to). */
  tallyBetween(
    from: number,
    to: number,
    by: 'sentAt' | 'answeredAt' = 'sentAt',
  ): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const entry of this.log) {
      if (entry[by] < from || entry[by] >= to) continue;
      counts[String(entry.answer)] = (counts[String(entry.answer)] ?? 0) + 1;
    }
    return counts;
  }

  /** Changes the rate from now on. */
  setRate(rate: number): void {
    const now = Date.now();
    this.tick(now);
    this.base = this.sent;
    this.rateFrom = now;
    this.rate = rate;
  }

  private tick(now = Date.now()): void {
    const due = this.base + Math.floor(((now - this.rateFrom) / 1000) * this.rate);
    while (this.sent < due) {
      this.sent++;
      const n = nextLead++;
      const done = this.post(n).finally(() => this.inFlight.delete(done));
      this.inFlight.add(done);
    }
  }

  private post(n: number): Promise<void> {
    const body = leadBody(n, this.options.tag);
    const externalId = body.external_id as string;
    const payload = JSON.stringify(body);
    const sentAt = Date.now();
    const answer = (value: Answer) => {
      if (this.answers.has(externalId)) return;
      this.answers.set(externalId, value);
      this.log.push({ externalId, sentAt, answeredAt: Date.now(), answer: value });
    };
    return new Promise((resolve) => {
      const req = request(
        this.options.url(),
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
          timeout: this.options.requestTimeoutMs ?? 60_000,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            answer(status);
            if (status === 201) {
              this.accepted.push((JSON.parse(text) as { lead_id: string }).lead_id);
            }
            resolve();
          });
          res.on('error', () => {
            answer('error');
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        const key = err.code ?? err.message;
        this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
        answer('error');
        resolve();
      });
      req.end(payload);
    });
  }
}

export interface Receipt {
  webhookId: string;
  /** The payload's own id, activity_label and lead_id. */
  id: string;
  label: string;
  leadId: string;
}

/**
 * A subscriber system: answers 204 to every webhook and records it; while
 * `answering` is false it answers nothing (a subscriber that hangs), and what it
 * was sent then is kept apart, in `unanswered`, not counted as received.
 */
export class Subscriber {
  readonly receipts: Receipt[] = [];
  readonly unanswered: Receipt[] = [];
  answering = true;
  private server: LocalSubscriber | undefined;

  async start(): Promise<void> {
    this.server = await LocalSubscriber.start((req, res) => {
      const body = JSON.parse(req.body) as { id: string; activity_label: string; lead_id: string };
      const receipt = {
        webhookId: String(req.headers['webhook-id']),
        id: body.id,
        label: body.activity_label,
        leadId: body.lead_id,
      };
      if (!this.answering) {
        this.unanswered.push(receipt);
        return;
      }
      this.receipts.push(receipt);
      res.statusCode = 204;
      res.end();
    });
  }

  get port(): number {
    return this.server?.port ?? 0;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** webhook-id → how many times it was received. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.receipts) counts.set(r.webhookId, (counts.get(r.webhookId) ?? 0) + 1);
    return counts;
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}
