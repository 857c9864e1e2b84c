import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The API reference (docs/api.md, "API reference"): the served OpenAPI document
 * rendered by Swagger UI (swagger-ui-dist), at GET /api/v1/docs. Every file the
 * page loads is served by the api itself, from the package in node_modules and
 * from services/api/assets (the page's own script, and its own stylesheet, which
 * gives Swagger UI's faint colours AA contrast): nothing is fetched from a
 * CDN, and the page's Content-Security-Policy allows scripts from this origin
 * only, none inline, no eval.
 */

/**
 * The page's policy. Swagger UI styles its elements through the DOM's style
 * properties (not style attributes or <style> elements), which style-src does
 * not govern: its stylesheet is a file, so 'self' is enough. Its stylesheet's
 * icons are data: URLs (img-src data:); it fetches the document from this
 * origin (connect-src 'self').
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The files are the installed package's: revalidated (ETag) after an hour. */
export const API_REFERENCE_ASSET_CACHE = 'public, max-age=3600';

export interface ApiReferenceAsset {
  contentType: string;
  body: Buffer;
}

export interface ApiReference {
  /** The page, for `GET {prefix}/docs`. */
  page: string;
  /** The files under `{prefix}/docs/assets/`, by name. */
  assets: ReadonlyMap<string, ApiReferenceAsset>;
}

/** The media types of the files the page loads (documented on the assets' operation). */
export const API_REFERENCE_MEDIA = ['text/javascript', 'text/css', 'image/png'] as const;
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const PNG = 'image/png';

/** swagger-ui-dist's directory, resolved from this package (it is a dependency of the api). */
function swaggerUiDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** services/api/assets: the same from src/ (tests) and from dist/ (the built service). */
const OWN_ASSETS_DIR = fileURLToPath(new URL('../assets/', import.meta.url));

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Reads the files once, at start (a missing file fails the start, not a
 * visitor), and writes the page. `prefix` is where the API is served
 * (/api/v1); `title` the document's info.title.
 */
export function loadApiReference(prefix: string, title: string): ApiReference {
  const ui = swaggerUiDir();
  const files: [string, string, string][] = [
    ['swagger-ui-bundle.js', join(ui, 'swagger-ui-bundle.js'), JS],
    ['swagger-ui.css', join(ui, 'swagger-ui.css'), CSS],
    ['favicon-32x32.png', join(ui, 'favicon-32x32.png'), PNG],
    ['api-reference.css', join(OWN_ASSETS_DIR, 'api-reference.css'), CSS],
    ['api-reference.js', join(OWN_ASSETS_DIR, 'api-reference.js'), JS],
  ];
  const assets = new Map<string, ApiReferenceAsset>();
  for (const [name, path, contentType] of files) {
    assets.set(name, { contentType, body: readFileSync(path) });
  }
  const asset = (name: string) => {
    const version = createHash('sha256')
      .update(assets.get(name)?.body ?? '')
      .digest('hex')
      .slice(0, 12);
    return `${prefix}/docs/assets/${name}?v=${version}`;
  };
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: reference</title>
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('api-reference.css')}">
</head>
<body>
<noscript><p>This page needs JavaScript. The same reference, machine-readable: <a href="${prefix}/openapi.json">${prefix}/openapi.json</a>.</p></noscript>
<div id="api-reference" data-openapi-url="${prefix}/openapi.json"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('api-reference.js')}"></script>
</body>
</html>
`;
  return { page, assets };
}
