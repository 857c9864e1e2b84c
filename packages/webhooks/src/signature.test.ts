import { generateSecret, sign, verify } from './signature.js';

/**
 * The receiver's side, through the module's own verify: the signature must
 * verify at the moment it was made, with the headers a receiver reads.
 */
function verifies(secret: string, headers: Record<string, string>, body: string): boolean {
  return verify({
    secret,
    id: headers['webhook-id'],
    timestamp: headers['webhook-timestamp'],
    signature: headers['webhook-signature'],
    body,
    now: new Date(Number(headers['webhook-timestamp']) * 1000),
  }).ok;
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
    expect(verifies(secret, headers, body)).toBe(true);
    expect(verifies(secret, headers, `${body} `)).toBe(false);
    expect(verifies(generateSecret(), headers, body)).toBe(false);
    expect(verifies(secret, { ...headers, 'webhook-timestamp': String(timestamp + 1) }, body)).toBe(
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
    expect(verifies(current, headers, body)).toBe(true);
    expect(verifies(previous, headers, body)).toBe(true);
    expect(verifies(generateSecret(), headers, body)).toBe(false);
  });

  it('refuses no secret or a fractional timestamp', () => {
    expect(() => sign({ secrets: [], id, timestamp, body })).toThrow();
    expect(() => sign({ secrets: [generateSecret()], id, timestamp: 1.5, body })).toThrow();
  });
});

describe('verify', () => {
  // The Standard Webhooks / Svix documentation's worked example, as a receiver gets it.
  const example = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: '1614265330',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    body: '{"test": 2432232314}',
    now: new Date(1614265330 * 1000),
  };

  it('accepts the specification example, also among other entries', () => {
    expect(verify(example)).toEqual({ ok: true });
    const others = `v2,abc v1,${Buffer.alloc(32).toString('base64')} ${example.signature}`;
    expect(verify({ ...example, signature: others })).toEqual({ ok: true });
  });

  it('names what is wrong: a missing header, a stale timestamp, a signature that does not match', () => {
    expect(verify({ ...example, id: undefined })).toEqual({ ok: false, reason: 'missing' });
    expect(verify({ ...example, signature: '' })).toEqual({ ok: false, reason: 'missing' });
    const late = new Date(example.now.getTime() + 301_000);
    expect(verify({ ...example, now: late })).toEqual({ ok: false, reason: 'timestamp' });
    expect(verify({ ...example, now: late, toleranceSeconds: 400 })).toEqual({ ok: true });
    expect(verify({ ...example, timestamp: '1614265330.0' })).toEqual({
      ok: false,
      reason: 'timestamp',
    });
    expect(verify({ ...example, body: `${example.body} ` })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify({ ...example, signature: 'v1,short' })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify({ ...example, secret: 'whsec_' })).toEqual({ ok: false, reason: 'mismatch' });
  });
});
