// What the first page loads, measured from the built files (docs/dashboard.md, "Size").
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first page's JavaScript budget, gzipped. */
export const FIRST_PAGE_JS_LIMIT_BYTES = 80 * 1024;

/**
 * The JavaScript index.html loads (module scripts and modulepreloads), each file's
 * gzipped size, and their total.
 */
export async function firstPageJavaScript(distDir) {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const sources = new Set();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) sources.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) {
    sources.add(match[1]);
  }
  const files = [];
  for (const src of sources) {
    const path = join(distDir, src.replace(/^\/dashboard\//, ''));
    files.push({ file: src, gzipBytes: gzipSync(await readFile(path), { level: 9 }).length });
  }
  return { files, totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}
