import { isIP } from 'node:net';
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
 * Why a subscription URL is refused, or null when it is acceptable. The WHATWG
 * parser has already normalised the odd IPv4 spellings (`0x7f.1`, `2130706433`,
 * `017700000001`) to dotted quads, so they are caught too.
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
  if (options.allowPrivateTargets) return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  // RFC 6761: localhost and every name under it are loopback.
  if (host === 'localhost' || host.endsWith('.localhost')) return 'private_target';
  return isPrivateAddress(host) ? 'private_target' : null;
}
