import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postTwilioCallback, type TwilioCallbackParams } from './twilio-callback.js';

/**
 * A fake of Twilio's REST API (the Messages and Calls resources of API version
 * 2010-04-01) on a real local HTTP server, for the Twilio provider's tests:
 * TWILIO_API_BASE points at `url`. It checks what Twilio checks that matters to
 * us (Basic auth of the account, the form fields), records every request, keeps
 * the messages and calls it accepted (listed back for reconciliation), and
 * answers as a test scripts it: per resource, a queue of answers for the next
 * creating POSTs (an empty queue accepts), or per recipient.
 *
 * With `callbacks` it also plays Twilio's side of the callbacks: shortly after
 * a 201 it posts the message's `sent` then its fate (`delivered`, or
 * `undelivered`/`failed` with an ErrorCode), or the call's final status with
 * AnsweredBy, to the request's StatusCallback, signed with the auth token; and
 * `inbound` posts a reply to our number, as Twilio does to the number's webhook.
 */

/** The two resources leadhook creates. */
export type FakeTwilioResource = 'message' | 'call';

/**
 * A scripted answer to a creating POST:
 * - `accept`: 201 with the new resource; `beforeAnswer` is awaited before the answer is
 *   written (a test locks the caller's row there, so its commit of the sid waits), and
 *   `afterAnswer` fires right after the answer was written (a test kills the caller there);
 * - `error`: Twilio's error document with `status` and `code` (21610, 21211,
 *   21614, 20429…), nothing created;
 * - `accept_and_drop`: the resource is created but the connection is cut
 *   before any answer (the caller cannot know it was sent);
 * - `drop`: the connection is cut, nothing created.
 */
export type FakeTwilioAnswer =
  | {
      kind: 'accept';
      beforeAnswer?: (created: FakeTwilioRecord) => Promise<void>;
      afterAnswer?: (created: FakeTwilioRecord) => void;
      /** What the status callbacks report (with `callbacks`); default: delivered, or answered by a person. */
      fate?: FakeTwilioFate;
    }
  | { kind: 'error'; status: number; code?: number; retryAfterSeconds?: number }
  | { kind: 'accept_and_drop' }
  | { kind: 'drop' };

/**
 * What becomes of an accepted message or call, as its status callbacks report
 * it: a message's final MessageStatus (after `sent`) with Twilio's ErrorCode
 * for a failure; a call's final CallStatus with AnsweredBy (machine detection's
 * verdict: `machine_end_beep` is a voicemail, `human` a person).
 */
export type FakeTwilioFate =
  | { message: 'delivered' }
  | { message: 'undelivered' | 'failed'; errorCode: number }
  | {
      call: 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';
      answeredBy?:
        | 'human'
        | 'machine_start'
        | 'machine_end_beep'
        | 'machine_end_silence'
        | 'machine_end_other'
        | 'fax'
        | 'unknown';
    };

/** A callback the fake posted (one entry per try) and intake's answer. */
export interface FakeTwilioCallback {
  at: number;
  url: string;
  params: TwilioCallbackParams;
  /** The HTTP status, or 0 when the request itself failed. */
  status: number;
  text: string;
}

/** A request as the fake received it. */
export interface FakeTwilioRequest {
  at: number;
  method: string;
  /** The path without the query. */
  path: string;
  /** What it was: a creating POST of a resource, a list of one, or anything else. */
  kind: FakeTwilioResource | 'list-messages' | 'list-calls' | 'other';
  /** Whether Basic auth named the account with its token. */
  authorized: boolean;
  form: Record<string, string>;
  query: Record<string, string>;
}

/** A message or call the fake accepted, in Twilio's JSON shape (the fields leadhook reads). */
export interface FakeTwilioRecord {
  sid: string;
  account_sid: string;
  to: string;
  from: string | null;
  messaging_service_sid?: string | null;
  body?: string;
  status: string;
  date_created: string;
  /** The form the creating POST carried. */
  form: Record<string, string>;
  /** Epoch ms of creation (the list filters compare it). */
  createdAt: number;
}

export interface FakeTwilioOptions {
  accountSid?: string;
  authToken?: string;
  /**
   * Post status callbacks after each 201: `true`, or the wait before each one
   * (default 200 ms, about when the worker has recorded Twilio's sid; a status
   * that comes before is held by intake until it has).
   */
  callbacks?: boolean | { delayMs?: number };
}

/** How often a callback is tried (Twilio retries one it could not deliver a few times too). */
const CALLBACK_TRIES = 15;
const CALLBACK_RETRY_MS = 300;

const API = '/2010-04-01/Accounts/';

export class FakeTwilio {
  readonly requests: FakeTwilioRequest[] = [];
  readonly messages: FakeTwilioRecord[] = [];
  readonly calls: FakeTwilioRecord[] = [];
  /** Every callback try, status and inbound, in order. */
  readonly callbacks: FakeTwilioCallback[] = [];
  private readonly scripts: Record<FakeTwilioResource, FakeTwilioAnswer[]> = {
    message: [],
    call: [],
  };
  /** Answers for one recipient (key: resource and To), before the resource's queue. */
  private readonly recipientScripts = new Map<string, FakeTwilioAnswer[]>();
  private readonly pending = new Set<Promise<void>>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    /** TWILIO_API_BASE. */
    readonly url: string,
    readonly accountSid: string,
    readonly authToken: string,
    /** The wait before each status callback, or null for none. */
    private readonly callbackDelayMs: number | null,
  ) {}

  static async start(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
    let self: FakeTwilio | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!self) return res.destroy();
        self.handle(req, Buffer.concat(chunks).toString('utf8'), res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new FakeTwilio(
      server,
      `http://127.0.0.1:${port}`,
      options.accountSid ?? `AC${randomBytes(16).toString('hex')}`,
      options.authToken ?? randomBytes(16).toString('hex'),
      callbackDelay(options.callbacks),
    );
    return self;
  }

  /** The settings that point a process at this fake (add TWILIO_FROM_NUMBER or the service). */
  settings(): Record<string, string> {
    return {
      PROVIDER: 'twilio',
      TWILIO_API_BASE: this.url,
      TWILIO_ACCOUNT_SID: this.accountSid,
      TWILIO_AUTH_TOKEN: this.authToken,
    };
  }

  /** Queues answers for the next creating POSTs of `resource`, in order. */
  script(resource: FakeTwilioResource, ...answers: FakeTwilioAnswer[]): void {
    this.scripts[resource].push(...answers);
  }

  /**
   * Queues answers for the next creating POSTs of `resource` to `to` (E.164),
   * in order: leads worked at once each get their own script.
   */
  scriptFor(to: string, resource: FakeTwilioResource, ...answers: FakeTwilioAnswer[]): void {
    const key = `${resource} ${to}`;
    this.recipientScripts.set(key, [...(this.recipientScripts.get(key) ?? []), ...answers]);
  }

  /** The creating POSTs of `resource` received (authorized or not), to `to` if given. */
  posts(resource: FakeTwilioResource, to?: string): FakeTwilioRequest[] {
    return this.requests.filter(
      (r) => r.kind === resource && (to === undefined || r.form.To === to),
    );
  }

  /**
   * An SMS from `from` to our number `to`, as Twilio posts it to the number's
   * incoming-message webhook (`${publicBaseUrl}/providers/twilio/inbound`),
   * signed; answers intake's answer. `signature`: another one, or null for none.
   */
  async inbound(
    publicBaseUrl: string,
    message: { from: string; to: string; body: string; signature?: string | null },
  ): Promise<FakeTwilioCallback> {
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const params: TwilioCallbackParams = {
      ToCountry: 'US',
      SmsMessageSid: sid,
      NumMedia: '0',
      SmsSid: sid,
      SmsStatus: 'received',
      Body: message.body,
      To: message.to,
      NumSegments: '1',
      MessageSid: sid,
      AccountSid: this.accountSid,
      From: message.from,
      ApiVersion: '2010-04-01',
    };
    return this.post(`${publicBaseUrl}/providers/twilio/inbound`, params, message.signature);
  }

  /** Resolves once every status callback under way has been answered (or given up). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.settled();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, body: string, res: ServerResponse): void {
    const parsed = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const request: FakeTwilioRequest = {
      at: Date.now(),
      method,
      path: parsed.pathname,
      kind: kindOf(method, parsed.pathname, this.accountSid),
      authorized: this.authorized(req.headers.authorization),
      form: Object.fromEntries(new URLSearchParams(body)),
      query: Object.fromEntries(parsed.searchParams),
    };
    this.requests.push(request);
    const [status, document] = this.answer(request, res);
    if (status !== null) json(res, status, document);
  }

  /** The status and JSON to answer, or null when `create` answered (or cut) itself. */
  private answer(request: FakeTwilioRequest, res: ServerResponse): [number | null, unknown] {
    if (!request.authorized) return [401, twilioError(401, 20003, 'Authenticate')];
    switch (request.kind) {
      case 'message':
      case 'call':
        return this.create(request.kind, request.form, res);
      case 'list-messages':
        return [
          200,
          { messages: this.list(this.messages, request.query, 'DateSent>'), next_page_uri: null },
        ];
      case 'list-calls':
        return [
          200,
          { calls: this.list(this.calls, request.query, 'StartTime>'), next_page_uri: null },
        ];
      default:
        return [404, twilioError(404, 20404, 'The requested resource was not found')];
    }
  }

  private authorized(header: string | undefined): boolean {
    const expected = Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64');
    return header === `Basic ${expected}`;
  }

  private create(
    resource: FakeTwilioResource,
    form: Record<string, string>,
    res: ServerResponse,
  ): [number | null, unknown] {
    const problem = formProblem(resource, form);
    if (problem) return [400, twilioError(400, problem.code, problem.message)];
    const answer = this.recipientScripts.get(`${resource} ${form.To ?? ''}`)?.shift() ??
      this.scripts[resource].shift() ?? { kind: 'accept' };
    if (answer.kind === 'error') {
      if (answer.retryAfterSeconds !== undefined) {
        res.setHeader('retry-after', String(answer.retryAfterSeconds));
      }
      return [answer.status, twilioError(answer.status, answer.code ?? null, 'Scripted')];
    }
    if (answer.kind === 'drop') {
      res.socket?.destroy();
      return [null, null];
    }
    const created = this.record(resource, form);
    if (answer.kind === 'accept_and_drop') {
      res.socket?.destroy();
      return [null, null];
    }
    const { form: _form, createdAt: _at, ...document } = created;
    const respond = () => {
      res.statusCode = 201;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(document), () => {
        answer.afterAnswer?.(created);
        this.follow(resource, created, answer.fate);
      });
    };
    if (answer.beforeAnswer) {
      answer.beforeAnswer(created).then(respond, (err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    } else {
      respond();
    }
    return [null, null];
  }

  /** Posts the status callbacks of an accepted message or call, one after another. */
  private follow(
    resource: FakeTwilioResource,
    created: FakeTwilioRecord,
    fate: FakeTwilioFate | undefined,
  ): void {
    const delayMs = this.callbackDelayMs;
    const url = created.form.StatusCallback;
    if (delayMs === null || !url) return;
    const reports = statusReports(resource, created, fate);
    const run = (async () => {
      for (const params of reports) {
        await sleep(delayMs);
        if (this.closed) return;
        await this.postUntilTaken(url, params);
      }
    })();
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /**
   * Posts a status until intake takes it: a 5xx or a failed connection is
   * tried again, standing in for Twilio's retries of a callback it could not
   * deliver (a 503 while PostgreSQL is away). Any other answer is final, as it
   * is for Twilio: a 200 is never posted again, whether intake recorded the
   * status or held it for a sid the worker has not committed yet.
   */
  private async postUntilTaken(url: string, params: TwilioCallbackParams): Promise<void> {
    for (let attempt = 1; attempt <= CALLBACK_TRIES && !this.closed; attempt++) {
      const answer = await this.post(url, params);
      if (answer.status !== 0 && answer.status < 500) return;
      await sleep(CALLBACK_RETRY_MS);
    }
  }

  /** One signed POST (or with `signature`, when given), recorded. */
  private async post(
    url: string,
    params: TwilioCallbackParams,
    signature?: string | null,
  ): Promise<FakeTwilioCallback> {
    let status = 0;
    let text = '';
    try {
      ({ status, text } = await postTwilioCallback({
        url,
        authToken: this.authToken,
        params,
        ...(signature === undefined ? {} : { signature }),
      }));
    } catch (err) {
      text = (err as Error).message;
    }
    const callback = { at: Date.now(), url, params, status, text };
    this.callbacks.push(callback);
    return callback;
  }

  private record(resource: FakeTwilioResource, form: Record<string, string>): FakeTwilioRecord {
    const now = Date.now();
    const common = {
      sid: `${resource === 'message' ? 'SM' : 'CA'}${randomBytes(16).toString('hex')}`,
      account_sid: this.accountSid,
      to: form.To ?? '',
      status: 'queued',
      date_created: new Date(now).toUTCString(),
      form,
      createdAt: now,
    };
    if (resource === 'call') {
      const call = { ...common, from: form.From ?? null };
      this.calls.push(call);
      return call;
    }
    const message = {
      ...common,
      from: form.From ?? null,
      messaging_service_sid: form.MessagingServiceSid ?? null,
      body: form.Body ?? '',
    };
    this.messages.push(message);
    return message;
  }

  /**
   * Twilio's list filters: To, From, and `<date>>=YYYY-MM-DD` (compared with the
   * creation day here; Twilio compares the sending or start day, which for a
   * message or call of the last minutes is the same).
   */
  private list(
    records: FakeTwilioRecord[],
    query: Record<string, string>,
    dateKey: string,
  ): Omit<FakeTwilioRecord, 'form' | 'createdAt'>[] {
    const since = query[dateKey] ? Date.parse(`${query[dateKey]}T00:00:00Z`) : 0;
    return records
      .filter((r) => (query.To === undefined || r.to === query.To) && r.createdAt >= since)
      .filter((r) => query.From === undefined || r.from === query.From)
      .map(({ form: _form, createdAt: _at, ...document }) => document)
      .reverse();
  }
}

function callbackDelay(option: FakeTwilioOptions['callbacks']): number | null {
  if (!option) return null;
  return option === true ? 200 : (option.delayMs ?? 200);
}

/**
 * The status callbacks Twilio posts for a message (`sent`, then its fate) or a
 * call (its final status only: leadhook asks for `completed` events), with the
 * fields Twilio sends.
 */
function statusReports(
  resource: FakeTwilioResource,
  created: FakeTwilioRecord,
  fate: FakeTwilioFate | undefined,
): TwilioCallbackParams[] {
  const common = {
    AccountSid: created.account_sid,
    From: created.from ?? '',
    To: created.to,
    ApiVersion: '2010-04-01',
  };
  if (resource === 'message') {
    const final = fate && 'message' in fate ? fate : { message: 'delivered' as const };
    const report = (status: string, extra: Record<string, string> = {}) => ({
      ...common,
      SmsSid: created.sid,
      SmsStatus: status,
      MessageSid: created.sid,
      MessageStatus: status,
      ...(created.messaging_service_sid
        ? { MessagingServiceSid: created.messaging_service_sid }
        : {}),
      ...extra,
    });
    return [
      report('sent'),
      'errorCode' in final
        ? report(final.message, { ErrorCode: String(final.errorCode) })
        : report(final.message),
    ];
  }
  const final =
    fate && 'call' in fate ? fate : { call: 'completed' as const, answeredBy: 'human' as const };
  return [
    {
      ...common,
      CallSid: created.sid,
      CallStatus: final.call,
      Direction: 'outbound-api',
      CallbackSource: 'call-progress-events',
      SequenceNumber: '0',
      Timestamp: new Date().toUTCString(),
      ...(final.call === 'completed' ? { CallDuration: '14', Duration: '1' } : {}),
      ...(final.answeredBy ? { AnsweredBy: final.answeredBy } : {}),
    },
  ];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function kindOf(method: string, path: string, accountSid: string): FakeTwilioRequest['kind'] {
  const base = `${API}${accountSid}/`;
  if (!path.startsWith(base)) return 'other';
  const resource = path.slice(base.length);
  if (resource === 'Messages.json') return method === 'POST' ? 'message' : 'list-messages';
  if (resource === 'Calls.json') return method === 'POST' ? 'call' : 'list-calls';
  return 'other';
}

/** What Twilio would refuse in a creating POST (the codes are Twilio's). */
function formProblem(
  resource: FakeTwilioResource,
  form: Record<string, string>,
): { code: number; message: string } | null {
  if (!form.To) return { code: 21604, message: "A 'To' phone number is required." };
  if (!form.StatusCallback) return { code: 21609, message: 'StatusCallback is required (fake)' };
  if (resource === 'message') {
    if (!form.Body) return { code: 21602, message: 'Message body is required.' };
    if (!form.From && !form.MessagingServiceSid) {
      return { code: 21603, message: "A 'From' or 'MessagingServiceSid' parameter is required" };
    }
    return null;
  }
  if (!form.From) return { code: 21603, message: "A 'From' phone number is required." };
  if (!form.Twiml && !form.Url) return { code: 21205, message: 'Url or Twiml is required.' };
  return null;
}

function twilioError(status: number, code: number | null, message: string) {
  return {
    code,
    message,
    more_info: code === null ? null : `https://www.twilio.com/docs/errors/${code}`,
    status,
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}
