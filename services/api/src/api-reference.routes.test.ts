import { useHarness } from '@leadhook/testkit';
import { API_REFERENCE_CSP } from './api-reference.js';
import { startHarness } from './testing/harness.js';

const h = useHarness(() => startHarness());

/** The file names the page loads, in order: its stylesheets, icon and scripts. */
function assetsOf(page: string): string[] {
  return [...page.matchAll(/(?:href|src)="(\/api\/v1\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
}

describe('GET /api/v1/docs: the API reference page', () => {
  it('is HTML, without a key, under a policy that allows no inline script and no other origin', async () => {
    const res = await h.anonymous.get('/api/v1/docs').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = res.headers['content-security-policy'];
    expect(csp).toBe(API_REFERENCE_CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.text).toContain('<title>leadhook management API: reference</title>');
    expect(res.text).toContain('data-openapi-url="/api/v1/openapi.json"');
    // Every script is a file; nothing names another origin.
    expect(res.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(res.text).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
  });

  it("serves every file the page loads from the api's own origin, with a content type and a cache lifetime", async () => {
    const page = (await h.anonymous.get('/api/v1/docs')).text;
    const assets = assetsOf(page);
    expect(assets.map((a) => new URL(a, 'http://x').pathname.split('/').pop())).toEqual([
      'favicon-32x32.png',
      'swagger-ui.css',
      'api-reference.css',
      'swagger-ui-bundle.js',
      'api-reference.js',
    ]);
    const types = [];
    for (const asset of assets) {
      const res = await h.anonymous.get(asset).expect(200);
      types.push(res.headers['content-type']);
      expect([asset, res.headers['cache-control']]).toEqual([asset, 'public, max-age=3600']);
      expect([asset, res.headers['content-security-policy']]).toEqual([asset, API_REFERENCE_CSP]);
      expect([asset, res.headers.etag]).toEqual([asset, expect.any(String)]);
      expect([asset, Number(res.headers['content-length']) > 100]).toEqual([asset, true]);
    }
    expect(types).toEqual([
      'image/png',
      'text/css; charset=utf-8',
      'text/css; charset=utf-8',
      'text/javascript; charset=utf-8',
      'text/javascript; charset=utf-8',
    ]);
  });

  it("the page's own script points the renderer at the served document", async () => {
    const res = await h.anonymous.get('/api/v1/docs/assets/api-reference.js').expect(200);
    expect(res.text).toContain('SwaggerUIBundle(');
    expect(res.text).toContain('root.dataset.openapiUrl');
    expect(res.text).toContain('validatorUrl: null');
  });

  it('answers 404 for a file it does not serve, in the package or not', async () => {
    for (const name of ['nope.js', 'index.html', 'swagger-ui-bundle.js.map', '..%2Fpackage.json']) {
      const res = await h.anonymous.get(`/api/v1/docs/assets/${name}`).expect(404);
      expect([name, res.body.error]).toEqual([
        name,
        { code: 'not_found', message: 'No such file.', details: [] },
      ]);
    }
  });

  it('is documented as the document is: public operations of the Meta tag', async () => {
    const doc = (await h.anonymous.get('/api/v1/openapi.json')).body;
    const page = doc.paths['/docs'].get;
    expect(page.operationId).toBe('getApiReference');
    expect(page.security).toEqual([]);
    expect(Object.keys(page.responses[200].content)).toEqual(['text/html']);
    expect(doc.paths['/docs/assets/{file}'].get.security).toEqual([]);
  });
});
