import { readFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { performance } from 'node:perf_hooks';
import got, { type BeforeRequestHook, type Got, type PlainResponse } from 'got';
import { sign } from './signature.js';
import {
  guardedLookup,
  type Resolve,
  refuseLiteral,
  systemResolve,
  TARGET_REFUSED,
} from './target-guard.js';

/** The subscriber's answer is kept up to this many bytes (the attempt log shows it). */
export const RESPONSE_BODY_LIMIT = 4096;

/** What one HTTP try came to: an Attempt row, and the retry decision's input. */
export interface AttemptResult {
  /** A 2xx within the timeout. */
  ok: boolean;
  /** null when no response arrived (refused, connection error, timeout). */
  statusCode: number | null;
  durationMs: number;
  /** Why it is not a success, in words an account owner can act on; null on success. */
  error: string | null;
  /** The start of the answer, at most RESPONSE_BODY_LIMIT bytes, as text. */
  responseBody: string | null;
  /** A 429/503's Retry-After, in ms from now; null otherwise. */
  retryAfterMs: number | null;
}

export interface DeliverOptions {
  url: string;
  /** The exact body to send (payloadOf's `body`). */
  body: string;
  /** `webhook-id`: the activity id, the same on every retry. */
  id: string;
  /** Signing secrets: the current one, plus the previous one during a rotation. */
  secrets: readonly string[];
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: development and tests only. */
  allowPrivateTargets: boolean;
  /** The attempt's clock (`webhook-timestamp`, Retry-After dates). */
  now?: () => Date;
  /** Name resolution for the guarded lookup; dns.lookup by default (tests stub it). */
  resolve?: Resolve;
  /**
   * Aborts the attempt (the worker is stopping): deliver() then rejects with the
   * signal's reason instead of reporting a result, since the subscriber did not
   * get its timeout. Once the status line has arrived the answer counts, whatever
   * part of its body came.
   */
  signal?: AbortSignal;
}

/**
 * The product version in the User-Agent, from the root package.json (read once;
 * the same relative path works from src/ under jest and from dist/).
 */
export const USER_AGENT = `leadhook/${productVersion()} (+webhooks)`;

function productVersion(): string {
  for (const rel of ['../../../package.json', '../package.json']) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && 'version' in parsed) {
        const { version } = parsed;
        if (typeof version === 'string') return version;
      }
    } catch {
      // Not there (a bundled layout): try the next candidate.
    }
  }
  return '0.0.0';
}

/**
 * How long an idle keep-alive connection to a subscriber is kept (shorter when
 * the server announces a shorter Keep-Alive timeout): below the usual 5 s of
 * servers, so a connection is rarely reused just as the server closes it.
 */
const IDLE_SOCKET_MS = 4000;
/**
 * Connections to one origin at most (per process): more than a webhook worker
 * ever has attempts in flight (96 delivery jobs and 192 send slots,
 * services/webhook-worker/src/webhook.component.ts), so that no attempt waits in
 * the agent for a socket. An attempt's timeout runs from before it asks for one
 * (got's request timeout), so a wait there would spend a slow subscriber's
 * WEBHOOK_TIMEOUT_MS on the queue and record attempts it never received as
 * failures. What bounds the requests to a subscriber is the worker's concurrency
 * and one request per lead at a time.
 */
const MAX_SOCKETS_PER_ORIGIN = 512;
/** Idle connections kept per origin, for the next attempts to reuse. */
const MAX_FREE_SOCKETS_PER_ORIGIN = 64;

/**
 * A got instance per guard configuration (resolver, allowPrivate) with its own
 * keep-alive agents, shared by every attempt of the process: attempts to one
 * subscriber reuse its connections instead of paying a TCP (and TLS) handshake
 * each (bench/RESULTS.md: bench/webhooks' bare client, with and without
 * keep-alive). The SSRF guard is the agents' DNS `lookup` (an agent's options override
 * the request's), run for every NEW connection on the very address it then
 * connects to; a pooled connection stays bound to an address that passed it, and
 * a rebinding name is checked again at the next connection it opens.
 */
const clients = new WeakMap<Resolve, Map<boolean, Got>>();

/**
 * Empties a request's `cacheOptions` before got builds node's request options
 * from it. They only matter with got's `cache`, which is off here, but got 14
 * spreads them (four keys, all undefined) at the head of the ~35-key object it
 * hands to node:http, and V8 then builds that object and every copy node makes
 * of it in its slow dictionary form, a large share of what an attempt costs the
 * worker (bench/RESULTS.md, "got's cacheOptions").
 * got merges an extend's cacheOptions into its defaults' keys, so only a hook
 * can set them to `{}`.
 */
const withoutCacheOptions: BeforeRequestHook = (request) => {
  request.cacheOptions = {};
};

function clientFor(allowPrivate: boolean, resolve: Resolve = systemResolve): Got {
  let byGuard = clients.get(resolve);
  if (!byGuard) {
    byGuard = new Map();
    clients.set(resolve, byGuard);
  }
  let client = byGuard.get(allowPrivate);
  if (!client) {
    const options = {
      keepAlive: true,
      timeout: IDLE_SOCKET_MS,
      maxSockets: MAX_SOCKETS_PER_ORIGIN,
      maxFreeSockets: MAX_FREE_SOCKETS_PER_ORIGIN,
      scheduling: 'lifo' as const,
      lookup: guardedLookup({ allowPrivate, resolve }),
    };
    client = got.extend({
      agent: { http: new HttpAgent(options), https: new HttpsAgent(options) },
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      decompress: true,
      hooks: { beforeRequest: [withoutCacheOptions] },
    });
    byGuard.set(allowPrivate, client);
  }
  return client;
}

/**
 * Sends one signed webhook attempt (Standard Webhooks headers) with got and
 * reports what happened; it never throws for anything the subscriber or the
 * network does (only for its caller's `signal`). Redirects are not followed (a
 * 3xx is a failure: following one would let a public URL bounce the worker to an
 * internal one, and the subscriber should save its final URL). got's retries are off: the delivery row
 * schedules retries (docs/webhooks.md, "Retries"); only a request that never reached the
 * subscriber is sent again (see post).
 */
export async function deliver(options: DeliverOptions): Promise<AttemptResult> {
  options.signal?.throwIfAborted();
  const started = performance.now();
  const now = options.now ?? (() => new Date());
  const finish = (partial: Partial<AttemptResult>): AttemptResult => ({
    ok: false,
    statusCode: null,
    error: null,
    responseBody: null,
    retryAfterMs: null,
    ...partial,
    durationMs: Math.round(performance.now() - started),
  });

  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return finish({ error: 'invalid URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return finish({ error: `unsupported scheme ${url.protocol}` });
  }
  const literal = refuseLiteral(url.hostname, options.allowPrivateTargets);
  if (literal) return finish({ error: literal.message });

  const timestamp = Math.floor(now().getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': options.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign({
      secrets: options.secrets,
      id: options.id,
      timestamp,
      body: options.body,
    }),
  };
  const client = clientFor(options.allowPrivateTargets, options.resolve);
  const deadline = started + options.timeoutMs;
  try {
    const { response, body } = await post(client, url, options.body, headers, deadline, {
      resend: true,
      signal: options.signal,
    });
    const statusCode = response.statusCode;
    const ok = statusCode >= 200 && statusCode < 300;
    const retryAfterMs =
      statusCode === 429 || statusCode === 503
        ? parseRetryAfter(response.headers['retry-after'], now())
        : null;
    return finish({
      ok,
      statusCode,
      responseBody: body,
      retryAfterMs,
      error: ok
        ? null
        : statusCode >= 300 && statusCode < 400
          ? `redirect (${statusCode}) not followed`
          : `unexpected status ${statusCode}`,
    });
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    return finish({ error: describe(err, options.timeoutMs) });
  }
}

/**
 * POSTs through got's stream API (got decodes gzip, deflate and br) and reads
 * only the first RESPONSE_BODY_LIMIT bytes of the answer: a subscriber cannot
 * make the worker buffer a large body. The answer counts once its status line
 * arrived: a body cut short by the timeout or a broken connection keeps what
 * came. A request that found its pooled connection closed by the server (reset
 * before any answer: it never reached the subscriber) is sent once more, on a
 * new connection, within the same deadline; got does not do this itself.
 */
function post(
  client: Got,
  url: URL,
  body: string,
  headers: Record<string, string>,
  deadline: number,
  { resend, signal }: { resend: boolean; signal: AbortSignal | undefined },
): Promise<{ response: PlainResponse; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = client.stream.post(url, {
      body,
      headers,
      timeout: { request: Math.max(1, Math.round(deadline - performance.now())) },
      ...(signal ? { signal } : {}),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = () => {
      const response = stream.response;
      if (settled || !response) return;
      settled = true;
      // As text PostgreSQL can store: NUL is refused in text and jsonb values (a
      // subscriber's binary answer made its attempt, and its batch, unrecordable).
      const text = Buffer.concat(chunks)
        .subarray(0, RESPONSE_BODY_LIMIT)
        .toString('utf8')
        .replaceAll('\u0000', '\uFFFD');
      resolve({ response, body: text });
      // Stops reading a body past the limit (its connection is then not reused);
      // after a complete answer the connection is already back in the pool.
      stream.destroy();
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_LIMIT) done();
    });
    stream.on('end', done);
    stream.on('error', (err: unknown) => {
      if (settled) return;
      if (stream.response) return done();
      settled = true;
      const code = codeOf(err);
      if (resend && stream.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
        resolve(post(client, url, body, headers, deadline, { resend: false, signal }));
      } else {
        reject(err);
      }
    });
  });
}

function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * An attempt's error text: the cause in a few words, never the URL's query
 * string. Errors are told apart by their code (got copies the cause's code onto
 * its RequestError), not by class: node's own errors come from another realm
 * under jest's VM modules.
 */
function describe(err: unknown, timeoutMs: number): string {
  const code = codeOf(err);
  if (code === 'ETIMEDOUT') return `timeout after ${timeoutMs} ms`;
  if (code === TARGET_REFUSED) return String((err as { message?: unknown }).message);
  return code ? `connection failed (${code})` : 'request failed';
}

/**
 * Retry-After as ms from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Unparseable or past values count as none.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  const ms = at - now.getTime();
  return ms > 0 ? ms : null;
}
