import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The prefix of every signing secret (Standard Webhooks). */
export const SECRET_PREFIX = 'whsec_';

/** Random bytes in a secret: Standard Webhooks asks for 24 to 64. */
const SECRET_BYTES = 32;

/**
 * A new signing secret: `whsec_` + base64 of 32 bytes from the CSPRNG
 * (Standard Webhooks; the same form Svix issues, so its verifier libraries work).
 */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('a webhook secret must carry base64 key bytes');
  return key;
}

export interface SignInput {
  /** Every secret that signs: the current one, and the previous one during a rotation. */
  secrets: readonly string[];
  /** `webhook-id`: the activity id (or a test delivery's own id). */
  id: string;
  /** `webhook-timestamp`: this attempt's time, unix seconds. */
  timestamp: number;
  /** The exact bytes sent as the body. */
  body: string;
}

/**
 * The `webhook-signature` header value (Standard Webhooks): `v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">` per secret, space-separated, so a receiver that still
 * holds the old secret verifies during a rotation.
 */
export function sign(input: SignInput): string {
  if (input.secrets.length === 0) throw new Error('at least one secret signs');
  if (!Number.isInteger(input.timestamp)) throw new Error('timestamp is whole unix seconds');
  return input.secrets
    .map((secret) => `v1,${signature(secret, input).toString('base64')}`)
    .join(' ');
}

/** The HMAC-SHA256 of `id.timestamp.body` under one secret. */
function signature(secret: string, input: { id: string; timestamp: number; body: string }): Buffer {
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  return createHmac('sha256', secretKey(secret)).update(content).digest();
}

/** How far `webhook-timestamp` may be from now, by default (Standard Webhooks: 5 minutes). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyInput {
  /** The secret the sender signs with (`whsec_…`, or the bare base64 key). */
  secret: string;
  /** The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers as received. */
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  /** The exact bytes received as the body, as text. */
  body: string;
  now: Date;
  toleranceSeconds?: number;
}

/**
 * Why a request does not verify: a `missing` header, a `timestamp` that is not
 * unix seconds near now (a replay), or a `mismatch`: no `v1,` entry matches.
 */
export type VerifyResult =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'timestamp' | 'mismatch' };

/**
 * Standard Webhooks verification, the counterpart of sign: the timestamp must be
 * within the tolerance of `now`, and any one space-separated `v1,<base64>` entry
 * matching the HMAC verifies (a sender mid-rotation sends one per secret). The
 * compare is timing-safe.
 */
export function verify(input: VerifyInput): VerifyResult {
  const { id, timestamp, signature: header } = input;
  if (!id || !timestamp || !header) return { ok: false, reason: 'missing' };
  const seconds = Number(timestamp);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(input.now.getTime() / 1000 - seconds) > tolerance) {
    return { ok: false, reason: 'timestamp' };
  }
  let expected: Buffer;
  try {
    expected = signature(input.secret, { id, timestamp: seconds, body: input.body });
  } catch {
    // A secret without key bytes verifies nothing.
    return { ok: false, reason: 'mismatch' };
  }
  const matches = header.split(' ').some((entry) => {
    if (!entry.startsWith('v1,')) return false;
    const given = Buffer.from(entry.slice('v1,'.length), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, reason: 'mismatch' };
}
