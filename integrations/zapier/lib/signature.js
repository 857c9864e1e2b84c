const crypto = require('node:crypto');

/**
 * A header of the delivery as Zapier hands it to perform: its raw request's
 * headers are named `Http-` + the name in title case (`Http-Webhook-Signature`).
 * Looked up without regard to case or that prefix.
 */
const headerOf = (headers, name) => {
  const wanted = [name, `http-${name}`];
  for (const [key, value] of Object.entries(headers || {})) {
    if (wanted.includes(key.toLowerCase())) return String(value);
  }
  return undefined;
};

/**
 * Whether a delivery was signed with the hook's secret: leadhook signs
 * `${webhook-id}.${webhook-timestamp}.${body}` with HMAC-SHA256 under the secret
 * (`whsec_` + base64 key), sent as `v1,<base64>` in `webhook-signature` (two
 * entries while a rotation is in progress).
 */
const isSigned = (secret, rawRequest) => {
  if (!secret || !rawRequest) return false;
  const id = headerOf(rawRequest.headers, 'webhook-id');
  const timestamp = headerOf(rawRequest.headers, 'webhook-timestamp');
  const signatures = headerOf(rawRequest.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return false;
  const key = Buffer.from(String(secret).replace(/^whsec_/, ''), 'base64');
  const expected = crypto
    .createHmac('sha256', key)
    .update(`${id}.${timestamp}.${rawRequest.content}`)
    .digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
};

module.exports = { isSigned };
