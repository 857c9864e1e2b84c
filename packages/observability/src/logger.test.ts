import { Writable } from 'node:stream';
import { createLogger } from './logger.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', level: 'info', destination }) };
}

describe('createLogger', () => {
  it('removes personal data and secrets from logged objects', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        lead_id: 'lead_1',
        phone: '+15125550147',
        email: 'jane@example.com',
        body: { first_name: 'Jane' },
        subscription: { secret: 'whsec_abc', url: 'https://x' },
        req: { headers: { authorization: 'Bearer lh_secret' } },
      },
      'hello',
    );
    const line = lines.join('');
    expect(JSON.parse(line)).toMatchObject({ lead_id: 'lead_1', service: 'test', msg: 'hello' });
    for (const secret of ['+15125550147', 'jane@example.com', 'Jane', 'whsec_abc', 'lh_secret']) {
      expect(line).not.toContain(secret);
    }
  });

  it("logs a driver error's type, message and code but not the data it quotes", () => {
    const { lines, logger } = capture();
    const err = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (phone)=(+15125550147) already exists.',
      where: 'JSON data, line 1: {"email":"jane@example.com"',
      parameters: ['jane@example.com'],
    });
    logger.error({ err }, 'failed');
    const logged = JSON.parse(lines.join('')) as { err: Record<string, unknown> };
    expect(logged.err).toMatchObject({ type: 'Error', code: '23505' });
    expect(logged.err.message).toBe('duplicate key value violates unique constraint');
    expect(JSON.stringify(logged)).not.toContain('5125550147');
    expect(JSON.stringify(logged)).not.toContain('jane@example.com');
  });
});
