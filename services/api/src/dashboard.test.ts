import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useHarness } from '@leadhook/testkit';
import supertest from 'supertest';
import { DASHBOARD_CSP } from './dashboard.js';
import { startHarness } from './testing/harness.js';

/** A stand-in for services/dashboard/dist: what Vite writes, in miniature. */
async function fakeBuild(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dashboard-dist-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="/dashboard/assets/index-abc123.js"></script>',
  );
  await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log("dashboard");\n');
  return dir;
}

let dist = '';
beforeAll(async () => {
  dist = await fakeBuild();
});
afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

const built = useHarness(() => startHarness({ dashboardDir: dist }));
const unbuilt = useHarness(() => startHarness({ dashboardDir: join(tmpdir(), 'no-such-dist') }));

describe('the dashboard, built', () => {
  it('answers index.html for /dashboard and every path under it, revalidated each load', async () => {
    for (const path of [
      '/dashboard',
      '/dashboard/',
      '/dashboard/playbooks',
      '/dashboard/a/b?c=1',
    ]) {
      const res = await supertest(built.app).get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('/dashboard/assets/index-abc123.js');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends the strict Content-Security-Policy and refuses framing', async () => {
    const res = await supertest(built.app).get('/dashboard/leads');
    expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('serves hashed assets as immutable, and a missing asset as 404, not the page', async () => {
    const asset = await supertest(built.app).get('/dashboard/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    const missing = await supertest(built.app).get('/dashboard/assets/index-gone.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('<script');
  });

  it('redirects / to the dashboard', async () => {
    const res = await supertest(built.app).get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
  });

  it('leaves the API as it was', async () => {
    const { api_key } = await built.newAccount('Dashboard Co');
    const res = await built.as(api_key).get('/api/v1/account');
    expect(res.status).toBe(200);
    expect((await supertest(built.app).get('/api/v1/nowhere')).status).toBe(401);
  });
});

describe('the dashboard, not built', () => {
  it('answers 503 with a page that says how to build it, and the API still works', async () => {
    const res = await supertest(unbuilt.app).get('/dashboard/playbooks');
    expect(res.status).toBe(503);
    expect(res.text).toContain('The dashboard is not built');
    expect(res.text).toContain('pnpm build');
    const { api_key } = await unbuilt.newAccount();
    expect((await unbuilt.as(api_key).get('/api/v1/account')).status).toBe(200);
  });
});
