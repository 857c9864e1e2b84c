// The dashboard's build: static files in dist/, served by the api under /dashboard
// (docs/dashboard.md). No runtime network: everything is bundled, fonts are the system's.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Nothing inlined as data: URIs; the CSP allows only 'self'.
    assetsInlineLimit: 0,
    // Chromium, Firefox and Safari all support modulepreload: no polyfill in the entry.
    modulePreload: { polyfill: false },
  },
});
