import { generateIntakeKey, newId } from '@leadhook/db';
import { validLead } from '@leadhook/testkit';
import request from 'supertest';
import { createHarness, type Harness, type TestSource } from './testing/harness.js';

/**
 * Other methods than POST on a post URL: a live one answers 405 (Allow: POST), or
 * to a browser its Integration Instructions as a page; every URL that is not a
 * live source answers the one 404, whatever the method.
 */

let h: Harness;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

beforeAll(async () => {
  h = await createHarness({ options: { publicBaseUrl: 'https://leads.example.com' } });
});
afterAll(async () => {
  await h.close();
});

describe('a live post URL', () => {
  let source: TestSource;
  beforeAll(async () => {
    source = await h.makeSource({ name: 'Vendor <script>alert("x")</script> & Co' });
  });

  it.each([
    ['get', undefined],
    ['get', 'application/json'],
    ['get', '*/*'],
    ['put', BROWSER_ACCEPT],
    ['delete', undefined],
    ['patch', 'application/json'],
  ] as const)('answers %s (Accept %s) with 405 and Allow: POST', async (method, accept) => {
    const req = request(h.app)[method](source.path);
    const res = await (accept ? req.set('Accept', accept) : req);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      status: 'rejected',
      errors: [{ field: null, code: 'method_not_allowed', message: expect.any(String) }],
    });
  });

  it("answers a browser's GET with its Integration Instructions as a self-contained page", async () => {
    const res = await request(h.app).get(source.path).set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-/,
    );
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    const page = res.text;
    expect(page).toContain(`https://leads.example.com${source.path}`);
    for (const field of ['first_name', 'phone', 'tcpa_opt_in_url', 'external_id']) {
      expect(page).toContain(`<code>${field}</code>`);
    }
    expect(page).toContain('required');
    expect(page).toContain('+1 512-555-0147'); // an example
    expect(page).toContain('curl -X POST');
    // Escaped: the source's name, the HTML form example, quotes in the curl examples.
    expect(page).toContain('Vendor &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(page).toContain('&lt;form method=&quot;post&quot;');
    expect(page).not.toMatch(/<script|<form|<input|<link|<img|<iframe|\ssrc=|\shref=/i);
    // The one inline style is the one the CSP allows.
    expect(page.match(/<style>/g)).toHaveLength(1);
  });

  it('answers a HEAD from a browser with the page headers and no body', async () => {
    const res = await request(h.app).head(source.path).set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text ?? '').toBe('');
  });

  it('still takes leads by POST', async () => {
    const res = await h.post(source, validLead());
    expect(res.status).toBe(201);
  });
});

describe('a URL that is not a live source', () => {
  it('answers the same 404, byte for byte and header for header, to every method', async () => {
    const { active, paused, deleted, rotated } = await h.makeDeadSources();
    const paths = {
      unknown: `/marketing_sources/${active.accountId}/${generateIntakeKey()}`,
      'unknown account': `/marketing_sources/${newId('account')}/${active.key}`,
      rotated: rotated.path,
      paused: paused.path,
      deleted: deleted.path,
    };
    const methods = ['get', 'head', 'post', 'put', 'delete', 'patch'] as const;
    /** Each distinct answer (status, headers, body) → the requests that got it. */
    const answers = new Map<string, string[]>();
    for (const [what, path] of Object.entries(paths)) {
      for (const method of methods) {
        for (const accept of [undefined, BROWSER_ACCEPT]) {
          const req = request(h.app)[method](path);
          if (accept) req.set('Accept', accept);
          const res = method === 'post' ? await req.send(validLead()) : await req;
          // Everything but the per-request id and the date.
          const { date: _date, 'x-request-id': _id, ...headers } = res.headers;
          const answer = JSON.stringify({ status: res.status, headers, body: res.text ?? '' });
          answers.set(answer, [...(answers.get(answer) ?? []), `${method} ${what} ${accept}`]);
        }
      }
    }
    // Two answers in all: the 404 with its body, and HEAD's (the same headers, no body).
    const distinct = [...answers.keys()].map(
      (a) => JSON.parse(a) as { status: number; headers: Record<string, string>; body: string },
    );
    expect(distinct).toHaveLength(2);
    const withBody = distinct.find((a) => a.body !== '');
    const head = distinct.find((a) => a.body === '');
    expect(answers.get(JSON.stringify(head))).toHaveLength(Object.keys(paths).length * 2);
    expect(withBody?.status).toBe(404);
    expect(head?.status).toBe(404);
    expect(head?.headers).toEqual(withBody?.headers);
    expect(withBody?.headers.allow).toBeUndefined();
    expect(JSON.parse(withBody?.body ?? '')).toEqual({
      status: 'rejected',
      errors: [{ field: null, code: 'not_found', message: expect.any(String) }],
    });
  });
});
