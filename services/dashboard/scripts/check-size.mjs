// After `vite build`: fails the build when the first page's JavaScript is over budget.
// `node scripts/check-size.mjs [dist]`: dist/ beside this package unless another is named.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_PAGE_JS_LIMIT_BYTES, firstPageJavaScript } from './bundle-size.mjs';

const dist = process.argv[2]
  ? resolve(process.argv[2])
  : fileURLToPath(new URL('../dist', import.meta.url));
const { files, totalGzipBytes } = await firstPageJavaScript(dist);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
if (files.length === 0) {
  console.error('dashboard: index.html loads no JavaScript; is dist/ a Vite build?');
  process.exit(1);
}
if (totalGzipBytes > FIRST_PAGE_JS_LIMIT_BYTES) {
  console.error(
    `dashboard: the first page's JavaScript is ${kb(totalGzipBytes)} gzipped, over the ${kb(FIRST_PAGE_JS_LIMIT_BYTES)} budget:`,
  );
  for (const file of files) console.error(`  ${file.file}: ${kb(file.gzipBytes)}`);
  process.exit(1);
}
console.log(
  `dashboard: first page JavaScript ${kb(totalGzipBytes)} gzipped (budget ${kb(FIRST_PAGE_JS_LIMIT_BYTES)})`,
);
