/**
 * The page a seller sees when they open their post URL in a browser: the
 * source's Integration Instructions (the same document the management API
 * serves), as plain, self-contained HTML. Whoever holds the URL is already
 * trusted with it: it is the credential. Everything from the document is escaped;
 * the page loads nothing, and its Content-Security-Policy allows only its own
 * inline style, by hash.
 */
import { createHash } from 'node:crypto';
import { htmlEscape, type IntegrationSource, integrationInstructions } from '@leadhook/contracts';

const PAGE_STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}',
  'table{border-collapse:collapse;width:100%}',
  'th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}',
  'code,pre{font-family:ui-monospace,monospace;font-size:.9em}',
  'pre{background:#f4f4f4;padding:.75rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}',
].join('');

/**
 * Headers of the page: a CSP that allows nothing but the inline style above; no
 * referrer (the URL is a credential) and no caching of it.
 */
export const INSTRUCTIONS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

const e = htmlEscape;

function section(title: string, body: string): string {
  return `<h2>${e(title)}</h2>\n${body}`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const th = head.map((h) => `<th>${e(h)}</th>`).join('');
  const trs = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`);
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${trs.join('\n')}\n</tbody>\n</table>`;
}

/** The Integration Instructions of `source` as an HTML page. */
export function instructionsPage(source: IntegrationSource & { name: string }): string {
  const doc = integrationInstructions(source);
  const fields = table(
    ['field', 'required', 'format', 'max length', 'example', 'description'],
    doc.fields.map((f) => [
      `<code>${e(f.name)}</code>`,
      f.required ? 'required' : 'optional',
      f.format === null ? '' : `<code>${e(f.format)}</code>`,
      String(f.max_length),
      `<code>${e(f.example)}</code>`,
      e(f.description),
    ]),
  );
  const headers = table(
    ['header', 'required', 'description'],
    doc.headers.map((h) => [
      `<code>${e(h.name)}</code>`,
      h.required ? 'required' : 'optional',
      e(h.description),
    ]),
  );
  const responses = table(
    ['status', 'when', 'body'],
    doc.responses.map((r) => [
      String(r.status),
      e(r.case),
      `<pre>${e(JSON.stringify(r.body, null, 2))}</pre>`,
    ]),
  );
  const examples = [
    ['JSON (curl)', doc.examples.curl_json],
    ['HTML form post (curl)', doc.examples.curl_form],
    ['An HTML form', doc.examples.html_form],
  ]
    .map(([title, code]) => `<h3>${e(title ?? '')}</h3>\n<pre>${e(code ?? '')}</pre>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Integration Instructions: ${e(source.name)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<h1>Integration Instructions: ${e(source.name)}</h1>
<p>Send each lead with <code>${e(doc.method)}</code> to this URL, as <code>${doc.content_types.map(e).join('</code> or <code>')}</code>. Keep the URL secret: it is the only credential.</p>
<pre>${e(doc.post_url)}</pre>
${section('Fields', fields)}
${section('Extra fields', `<p>${e(doc.extra_fields.description)}</p>`)}
${section('Headers', headers)}
${section('Examples', examples)}
${section('Responses', responses)}
</body>
</html>
`;
}
