import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../paths.js';

const LOCK = join(tmpdir(), 'leadhook-scripts-build.lock');
const STALE_LOCK_MS = 180_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds scripts/dist (and the packages it references) for tests that run the
 * built entries as real processes. Only the scripts project, so a service being
 * worked on elsewhere cannot break these tests. Test files run in parallel: a
 * lock directory keeps two tsc -b from writing the same files at once.
 */
export function buildScripts(): void {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true });
      } catch {
        // Released between the two calls.
      }
      sleepSync(100);
    }
  }
  try {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-b', 'scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (result.status !== 0) {
      throw new Error(`tsc -b scripts failed:\n${result.stdout}${result.stderr}`);
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
