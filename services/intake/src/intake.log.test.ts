import { useHarness, validLead } from '@leadhook/testkit';
import request from 'supertest';
import { createHarness } from './testing/harness.js';

/**
 * At the default level (info), intake writes one line per answer, and that line
 * says what happened to the lead: its id, the source's id, the result and a
 * rejection's reason codes; never a value from the body.
 */

const h = useHarness(() => createHarness());

interface Line {
  msg: string;
  reqId?: string;
  source_id?: string;
  lead_id?: string;
  result?: string;
  reasons?: string[];
}

/** The lines written for one request (by its X-Request-Id). */
function linesOf(requestId: string): Line[] {
  return h.logLines
    .map((text) => JSON.parse(text) as Line)
    .filter((line) => line.reqId === requestId);
}

describe('the intake log at info', () => {
  it('writes exactly one line per answer, with the lead id, source id, result and reason codes', async () => {
    const source = await h.makeSource();
    const lead = validLead({ email: 'zq5.logprobe@example.com', last_name: 'Zqfivelog' });
    const send = (id: string, body: unknown, key?: string) => {
      const req = request(h.app).post(source.path).set('X-Request-Id', id);
      if (key) req.set('Idempotency-Key', key);
      return req.send(body as object);
    };

    const accepted = await send('log-accepted', lead, 'log-key');
    expect(accepted.status).toBe(201);
    const leadId: string = accepted.body.lead_id;
    expect((await send('log-replayed', lead, 'log-key')).status).toBe(201);
    expect((await send('log-duplicate', lead)).status).toBe(200);
    const bad = { ...lead, email: 'zq5 not an email', phone: '', zq5_object: { a: 1 } };
    expect((await send('log-rejected', bad)).status).toBe(422);
    const malformed = await h.post(source, JSON.stringify(lead), {
      'X-Request-Id': 'log-malformed',
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(malformed.status).toBe(400);
    const notFound = await request(h.app)
      .post(`${source.path}x`)
      .set('X-Request-Id', 'log-not-found')
      .send(lead);
    expect(notFound.status).toBe(404);
    const get = await request(h.app).get(source.path).set('X-Request-Id', 'log-get');
    expect(get.status).toBe(405);

    const expected: Record<string, Partial<Line>> = {
      'log-accepted': { result: 'accepted', source_id: source.sourceId, lead_id: leadId },
      'log-replayed': { result: 'replayed', source_id: source.sourceId, lead_id: leadId },
      'log-duplicate': { result: 'duplicate', source_id: source.sourceId, lead_id: leadId },
      'log-rejected': {
        result: 'rejected',
        source_id: source.sourceId,
        reasons: ['email:invalid', 'phone:required', 'unknown_field'],
      },
      'log-malformed': { result: 'malformed_body' },
      'log-not-found': { result: 'not_found' },
      'log-get': { result: 'method_not_allowed', source_id: source.sourceId },
    };
    for (const [id, fields] of Object.entries(expected)) {
      const lines = linesOf(id);
      expect([id, lines.length]).toEqual([id, 1]);
      expect(lines[0]).toMatchObject({ msg: 'request completed', ...fields });
    }
    expect(linesOf('log-rejected')[0]?.lead_id).toBeUndefined();
    expect(linesOf('log-not-found')[0]?.source_id).toBeUndefined();
    const all = h.logLines.join('\n');
    for (const value of ['zq5', 'Zqfivelog', source.key, lead.phone as string]) {
      expect(all).not.toContain(value);
    }
  });
});
