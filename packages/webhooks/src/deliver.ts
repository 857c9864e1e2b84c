import { readFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { performance } from 'node:perf_hooks';
import got, { type Response } from 'got';
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
  /** The exact body to send (buildPayload's `body`). */
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
 * Sends one signed webhook attempt (Standard Webhooks headers) and reports what
 * happened; it never throws for anything the subscriber or the network does.
 * Redirects are not followed (a 3xx is a failure: following one would let a
 * public URL bounce the worker to an internal one, and the subscriber should
 * save its final URL). got's own retries are off: the delivery row schedules
 * retries (DESIGN.md "Retries").
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
  const lookup = guardedLookup({
    allowPrivate: options.allowPrivateTargets,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  // Agents of this attempt only: no pooled socket outlives the check its lookup made.
  const agent = { http: new HttpAgent({ lookup }), https: new HttpsAgent({ lookup }) };
  try {
    const response = await post(url, options, timestamp, agent);
    const statusCode = response.statusCode;
    const ok = statusCode >= 200 && statusCode < 300;
    const retryAfterMs =
      statusCode === 429 || statusCode === 503
        ? parseRetryAfter(response.headers['retry-after'], now())
        : null;
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
  } finally {
    agent.http.destroy();
    agent.https.destroy();
  }
}

interface Answer {
  statusCode: number;
  headers: Response['headers'];
  body: string;
}

/**
 * POSTs through got's stream API so that only the first RESPONSE_BODY_LIMIT bytes
 * of the answer are read: a subscriber cannot make the worker buffer a large body.
 */
function post(
  url: URL,
  options: DeliverOptions,
  timestamp: number,
  agent: { http: HttpAgent; https: HttpsAgent },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = got.stream.post(url, {
      body: options.body,
      headers: {
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
      },
      agent,
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: options.timeoutMs },
      decompress: true,
    });
    let response: Response | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = () => {
      if (settled || !response) return;
      settled = true;
      const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
      resolve({ statusCode: response.statusCode, headers: response.headers, body: text });
      stream.destroy();
    };
    stream.on('response', (res: Response) => {
      response = res;
    });
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_LIMIT) done();
    });
    stream.on('end', done);
    stream.on('error', (err: Error) => {
      if (settled) return;
      // The status line arrived in time but the body did not: the answer counts.
      if (response && isTimeout(err)) return done();
      settled = true;
      reject(err);
    });
  });
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || codeOf(err) === 'ETIMEDOUT');
}

function codeOf(err: Error): string | undefined {
  const code = 'code' in err ? err.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** An attempt's error text: the cause in a few words, never the URL's query string. */
function describe(err: unknown, timeoutMs: number): string {
  if (!(err instanceof Error)) return 'request failed';
  if (isTimeout(err)) return `timeout after ${timeoutMs} ms`;
  const cause = err.cause instanceof Error ? err.cause : undefined;
  if (codeOf(err) === TARGET_REFUSED || (cause && codeOf(cause) === TARGET_REFUSED)) {
    return (cause && codeOf(cause) === TARGET_REFUSED ? cause : err).message;
  }
  const code = codeOf(err) ?? (cause ? codeOf(cause) : undefined);
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
