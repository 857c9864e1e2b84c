import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { waitFor } from '@leadhook/testkit';
import type { Page } from 'playwright-core';
import type { ApiOptions } from '../../api/src/app.js';
import { type Harness, startHarness } from '../../api/src/testing/harness.js';

/** services/dashboard: the package these tests are about. */
export const DASHBOARD_DIR = fileURLToPath(new URL('..', import.meta.url));
/** What `pnpm build` writes and the api serves. */
export const DASHBOARD_DIST = join(DASHBOARD_DIR, 'dist');
const VITE = join(DASHBOARD_DIR, 'node_modules', 'vite', 'bin', 'vite.js');

/** `vite build` of the dashboard into `outDir` (default dist/). */
export async function buildDashboard(outDir = DASHBOARD_DIST): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [VITE, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    { cwd: DASHBOARD_DIR },
  );
}

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? await newestSource(path) : (await stat(path)).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

/**
 * dist/ as the sources are now: built when missing or older than src/ and
 * index.html (a screen edited since the last `pnpm build`). Test files that run at
 * once take turns through a lock directory.
 */
export async function ensureDashboardBuilt(): Promise<void> {
  const lock = join(DASHBOARD_DIR, '.build-lock');
  await waitFor(
    () => {
      try {
        mkdirSync(lock);
        return true;
      } catch {
        // A lock left by a killed run is stale after two minutes.
        const made = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
        if (made !== undefined && Date.now() - made > 120_000) {
          rmSync(lock, { recursive: true, force: true });
        }
        return false;
      }
    },
    { timeoutMs: 180_000 },
  );
  try {
    const index = join(DASHBOARD_DIST, 'index.html');
    const sources = Math.max(
      await newestSource(join(DASHBOARD_DIR, 'src')),
      (await stat(join(DASHBOARD_DIR, 'index.html'))).mtimeMs,
    );
    if (!existsSync(index) || (await stat(index)).mtimeMs < sources) await buildDashboard();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The real api (createApp on this file's test database) serving the built dashboard over HTTP. */
export interface DashboardApi {
  harness: Harness;
  /** http://127.0.0.1:<port>: open `${baseUrl}/dashboard`. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Builds the dashboard if it must, then starts the api on a free port: use with
 * useHarness. `options` on top (e.g. webhookAllowPrivateTargets for a local subscriber).
 */
export async function startDashboardApi(options: Partial<ApiOptions> = {}): Promise<DashboardApi> {
  await ensureDashboardBuilt();
  const harness = await startHarness({ dashboardDir: DASHBOARD_DIST, ...options });
  const server: Server = createServer(harness.app);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    harness,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await harness.close();
    },
  };
}

/** Opens the dashboard and signs in with `apiKey`; resolves once the app shell shows. */
export async function signIn(page: Page, baseUrl: string, apiKey: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
