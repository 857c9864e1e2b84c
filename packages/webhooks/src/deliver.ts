import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { sign } from './signature.js';
import { guardedLookup, type Resolve, refuseLiteral, TARGET_REFUSED } from './target-guard.js';
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
/** Connections to one origin at most (per process); more attempts wait for one. */
const MAX_SOCKETS_PER_ORIGIN = 64;

interface Agents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * Keep-alive agents, one pair per guard configuration (allowPrivate, resolver),
 * shared by every attempt of the process: a node Agent pools connections per
 * origin, so attempts to one subscriber reuse its connections instead of paying
 * a TCP (and TLS) handshake each (bench/webhooks: a new connection per request
 * halves what a client can send). The SSRF guard is the agents' DNS `lookup`,
 * which runs for every NEW connection, on the very address it then connects to;
 * a pooled connection stays bound to an address that passed that check, so
 * reusing it cannot reach anywhere the guard refused (a rebinding name is
 * checked again at the next connection it opens).
 */
const agentCache = new Map<boolean, WeakMap<Resolve | typeof defaultResolveKey, Agents>>();
const defaultResolveKey = Object.freeze({});

function agentsFor(allowPrivate: boolean, resolve: Resolve | undefined): Agents {
  let byResolve = agentCache.get(allowPrivate);
  if (!byResolve) {
    byResolve = new WeakMap();
    agentCache.set(allowPrivate, byResolve);
  }
  const key = resolve ?? defaultResolveKey;
  let agents = byResolve.get(key);
  if (!agents) {
    const lookup = guardedLookup({ allowPrivate, ...(resolve ? { resolve } : {}) });
    const options = {
      keepAlive: true,
      timeout: IDLE_SOCKET_MS,
      maxSockets: MAX_SOCKETS_PER_ORIGIN,
      maxFreeSockets: MAX_SOCKETS_PER_ORIGIN,
      scheduling: 'lifo' as const,
      lookup,
    };
    agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };
    byResolve.set(key, agents);
  }
  return agents;
}

/**
 * Sends one signed webhook attempt (Standard Webhooks headers) and reports what
 * happened; it never throws for anything the subscriber or the network does.
 * Redirects are not followed (a 3xx is a failure: following one would let a
 * public URL bounce the worker to an internal one, and the subscriber should
 * save its final URL). Nothing is retried here except a request that found its
 * pooled keep-alive connection already closed by the server (it never reached
 * the subscriber): the delivery row schedules retries (DESIGN.md "Retries").
 *
 * Plain node:http rather than got: per attempt got cost ~0.2 ms more CPU than
 * the whole node:http request (bench/webhooks), and of its features only a
 * total timeout, a bounded read and decompression are needed.
 */
export async function deliver(options: DeliverOptions): Promise<AttemptResult> {
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
    'content-length': String(Buffer.byteLength(options.body)),
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
  const agents = agentsFor(options.allowPrivateTargets, options.resolve);
  const deadline = started + options.timeoutMs;
  try {
    let response: Answer;
    try {
      response = await post(url, options.body, headers, agents, deadline);
    } catch (err) {
      if (!(err instanceof StaleConnectionError)) throw err;
      response = await post(url, options.body, headers, agents, deadline);
    }
    const statusCode = response.statusCode;
    const ok = statusCode >= 200 && statusCode < 300;
    const retryAfterMs =
      statusCode === 429 || statusCode === 503 ? parseRetryAfter(response.retryAfter, now()) : null;
    return finish({
      ok,
      statusCode,
      responseBody: response.body,
      retryAfterMs,
      error: ok
        ? null
        : statusCode >= 300 && statusCode < 400
          ? `redirect (${statusCode}) not followed`
          : `unexpected status ${statusCode}`,
    });
  } catch (err) {
    return finish({ error: describe(err, options.timeoutMs) });
  }
}

interface Answer {
  statusCode: number;
  retryAfter: string | undefined;
  body: string;
}

/** The attempt's time ran out (the whole request, connection included). */
class AttemptTimeoutError extends Error {
  constructor() {
    super('attempt timed out');
    this.name = 'TimeoutError';
  }
}

/** A reused keep-alive connection was closed by the server before our request got through. */
class StaleConnectionError extends Error {}

/** The response as a stream of its decoded bytes (content-encoding gzip, deflate, br). */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/**
 * POSTs the body and reads only the first RESPONSE_BODY_LIMIT bytes of the
 * answer (a subscriber cannot make the worker buffer a large body). The answer
 * counts once its status line arrived: a body cut short by the deadline or a
 * broken connection keeps what came.
 */
function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  agents: Agents,
  deadline: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers,
      agent: url.protocol === 'https:' ? agents.https : agents.http,
    });
    let statusCode: number | undefined;
    let retryAfter: string | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (statusCode !== undefined) {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        resolve({ statusCode, retryAfter, body: text });
      } else if (req.reusedSocket && ['ECONNRESET', 'EPIPE'].includes(codeOf(err) ?? '')) {
        reject(new StaleConnectionError());
      } else {
        reject(err);
      }
    };
    const timer = setTimeout(
      () => {
        settle(new AttemptTimeoutError());
        req.destroy();
      },
      Math.max(0, deadline - performance.now()),
    );
    req.on('error', (err) => settle(err));
    req.on('response', (res) => {
      statusCode = res.statusCode ?? 0;
      const header = res.headers['retry-after'];
      retryAfter = Array.isArray(header) ? header[0] : header;
      const stream = decoded(res);
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) {
          settle();
          // Stop reading: the rest is not wanted, and this connection is not reused.
          req.destroy();
        }
      });
      stream.on('end', () => settle());
      stream.on('error', (err) => settle(err));
      res.on('aborted', () => settle());
    });
    req.end(body);
  });
}

function isTimeout(err: unknown): boolean {
  return err instanceof AttemptTimeoutError || codeOf(err) === 'ETIMEDOUT';
}

function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * An attempt's error text: the cause in a few words, never the URL's query
 * string. Errors are told apart by their code, not by class: node's own errors
 * come from another realm under jest's VM modules.
 */
function describe(err: unknown, timeoutMs: number): string {
  if (isTimeout(err)) return `timeout after ${timeoutMs} ms`;
  const code = codeOf(err);
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
