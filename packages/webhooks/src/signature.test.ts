import { createHmac, timingSafeEqual } from 'node:crypto';
import { generateSecret, sign } from './signature.js';

/**
 * A verifier written from the Standard Webhooks specification alone (not from
 * the signer): the key is the base64 after `whsec_`, the signed content is
 * `${id}.${timestamp}.${body}`, the header holds space-separated `v1,<base64>`
 * entries, and any one matching entry verifies.
 */
function verify(secret: string, headers: Record<string, string>, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const content = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const expected = createHmac('sha256', key).update(content).digest();
  return (headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('generateSecret', () => {
  it('is whsec_ + base64 of at least 24 random bytes', () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(a).not.toBe(b);
  });
});

describe('sign', () => {
  const body = '{"id":"act_1","activity_label":"started"}';
  const id = 'act_01jd0000000000000000000000';
  const timestamp = 1_795_000_000;

  it('verifies with an independent Standard Webhooks verifier', () => {
    const secret = generateSecret();
    const signature = sign({ secrets: [secret], id, timestamp, body });
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    expect(verify(secret, headers, body)).toBe(true);
    expect(verify(secret, headers, `${body} `)).toBe(false);
    expect(verify(generateSecret(), headers, body)).toBe(false);
    expect(verify(secret, { ...headers, 'webhook-timestamp': String(timestamp + 1) }, body)).toBe(
      false,
    );
  });

  it('matches the specification example (Svix test vector)', () => {
    // From the Standard Webhooks / Svix documentation's worked example.
    const signature = sign({
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs with both secrets during a rotation, each verifying on its own', () => {
    const current = generateSecret();
    const previous = generateSecret();
    const signature = sign({ secrets: [current, previous], id, timestamp, body });
    expect(signature.split(' ')).toHaveLength(2);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    expect(verify(current, headers, body)).toBe(true);
    expect(verify(previous, headers, body)).toBe(true);
    expect(verify(generateSecret(), headers, body)).toBe(false);
  });

  it('refuses no secret or a fractional timestamp', () => {
    expect(() => sign({ secrets: [], id, timestamp, body })).toThrow();
    expect(() => sign({ secrets: [generateSecret()], id, timestamp: 1.5, body })).toThrow();
  });
});
