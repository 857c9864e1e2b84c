import { createHmac, randomBytes } from 'node:crypto';

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
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  return input.secrets
    .map(
      (secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`,
    )
    .join(' ');
}
