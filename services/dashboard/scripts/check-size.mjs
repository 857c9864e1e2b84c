// After `vite build`: fails the build when the first page's JavaScript is over budget.
import { fileURLToPath } from 'node:url';
import { FIRST_PAGE_JS_LIMIT_BYTES, firstPageJavaScript } from './bundle-size.mjs';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
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
