import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { isPublicAddress } from '@leadhook/webhooks';

/**
 * The early, literal half of the SSRF guard (docs/webhooks.md, "Safety"): a subscription URL
 * whose host is written as a non-public address, or is `localhost`, is refused
 * when it is saved, so the account learns at once. It cannot see what a name
 * resolves to; deliver() checks the resolved address at connect time, which is
 * what stops DNS rebinding. This check only makes the obvious mistake fail early,
 * with the very classification deliver() uses (packages/webhooks isPublicAddress),
 * so a URL saved here is never one the worker refuses for its literal host.
 */

/**
 * True when `address` is an IP literal that is not a public unicast address:
 * loopback, private, CGNAT, link-local (cloud metadata), unspecified, multicast,
 * reserved, and the IPv4-mapped forms of these. A host name is false here.
 */
export function isPrivateAddress(address: string): boolean {
  return isIP(address) !== 0 && !isPublicAddress(address);
}

export type TargetUrlProblem = 'invalid' | 'scheme' | 'private_target';

/**
 * The host a reader sees in `raw`: the text between `scheme://` and the first
 * `/`, `?` or `#`, less any `user:password@` and `:port`. Null when `raw` has
 * no such authority (`http:/foo`, `http:///foo`), or carries what the URL
 * parser silently drops or rewrites (white space, control characters, a
 * backslash, which it reads as a slash).
 */
function writtenHost(raw: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\s\\\u0000-\u001f\u007f]/.test(raw)) return null;
  const authority = /^https?:\/\/([^/?#]+)/i.exec(raw)?.[1];
  if (authority === undefined) return null;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
}

/**
 * True when the host as written is the parsed one, letter case aside: an IP
 * literal in brackets (one IPv6 address, however spelled), a plain ASCII name
 * or dotted quad as it stands, or an internationalised name whose punycode it
 * is. Percent-escapes and numeric IPv4 shorthands (`0x7f.1`, `2130706433`)
 * parse to another text, so they are not the same host for a reader.
 */
function isSameHost(written: string, parsed: string): boolean {
  if (written.startsWith('[')) return parsed.startsWith('[');
  if (written.includes('%')) return false;
  const lower = written.toLowerCase();
  // Control characters never get here (writtenHost), so [^ -~] is "not ASCII".
  return lower === parsed || (/[^ -~]/.test(lower) && domainToASCII(lower) === parsed);
}

/**
 * Why a subscription URL is refused, or null when it is acceptable. The WHATWG
 * parser normalises odd spellings (`0x7f.1`, `2130706433`, `%31%32%37.0.0.1`,
 * `http:///foo`, a tab inside the host), so the classification runs on the host
 * it produced; a URL whose host is not the one written in it is refused as
 * `invalid`, so what the account reads in its list is where deliveries go.
 */
export function targetUrlProblem(
  raw: string,
  options: { allowPrivateTargets: boolean },
): TargetUrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (url.hostname === '') return 'invalid';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (!options.allowPrivateTargets) {
    // RFC 6761: localhost and every name under it are loopback.
    if (host === 'localhost' || host.endsWith('.localhost')) return 'private_target';
    if (isPrivateAddress(host)) return 'private_target';
  }
  const written = writtenHost(raw);
  return written !== null && isSameHost(written, url.hostname) ? null : 'invalid';
}
