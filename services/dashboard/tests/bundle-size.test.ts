import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FIRST_PAGE_JS_LIMIT_BYTES, firstPageJavaScript } from '../scripts/bundle-size.mjs';
import { buildDashboard, DASHBOARD_DIR } from './support.js';

/** A Vite build on a loaded machine. */
const BUILD_TIMEOUT_MS = 180_000;

let out = '';
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'dashboard-build-'));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

const checkSize = (dist: string) =>
  promisify(execFile)(process.execPath, [join(DASHBOARD_DIR, 'scripts', 'check-size.mjs'), dist]);

describe('the built dashboard (docs/dashboard.md, "What is served")', () => {
  it(
    "keeps the first page's JavaScript within 80 KB gzipped, with no inline script",
    async () => {
      // Its own output directory: a browser test may be reading dist/ meanwhile.
      await buildDashboard(out);
      const { files, totalGzipBytes } = await firstPageJavaScript(out);
      expect(files.length).toBeGreaterThan(0);
      expect(totalGzipBytes).toBeLessThanOrEqual(FIRST_PAGE_JS_LIMIT_BYTES);
      await expect(checkSize(out)).resolves.toBeDefined();

      const html = await readFile(join(out, 'index.html'), 'utf8');
      // The CSP allows 'self' scripts only: every <script> has a src under /dashboard/.
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
        expect(tag).toMatch(/\bsrc="\/dashboard\/assets\/[^"]+\.js"/);
      }
      expect(html).not.toMatch(/<style\b|\sstyle="|https?:\/\//);
    },
    BUILD_TIMEOUT_MS,
  );

  it('fails the build over the budget', async () => {
    const dist = join(out, 'too-big');
    await mkdir(join(dist, 'assets'), { recursive: true });
    // Random bytes do not compress: 100 KB stays 100 KB gzipped.
    await writeFile(join(dist, 'assets', 'index-big.js'), randomBytes(100 * 1024).toString('hex'));
    await writeFile(
      join(dist, 'index.html'),
      '<script type="module" crossorigin src="/dashboard/assets/index-big.js"></script>',
    );
    await expect(checkSize(dist)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('over the 80.0 KB budget'),
    });
  }, 30_000);
});
