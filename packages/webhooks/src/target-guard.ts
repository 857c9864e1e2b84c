import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard (docs/webhooks.md, "Safety"). Subscriber URLs
 * are chosen by account owners, so a delivery must not reach the worker's own
 * network: loopback, RFC 1918, CGNAT, ULA, link-local (cloud metadata at
 * 169.254.169.254), unspecified, multicast, reserved, and IPv4-mapped IPv6 forms
 * of all of these.
 *
 * Classification uses ipaddr.js (a small, dependency-free library that Express's
 * proxy-addr relies on) rather than hand-written masks: its range table covers
 * both families and the transition forms, and is maintained against the IANA
 * special-purpose registries. Fail closed: only what it calls `unicast`
 * (globally routable) passes; 6to4, Teredo and NAT64 forms, which can embed a
 * private IPv4 address, are refused along with the rest.
 *
 * IPv6 is held to an allow-list on top of that: only global unicast
 * (2000::/3, RFC 4291) may pass. ipaddr.js calls whatever it has no name for
 * `unicast`, and that includes the deprecated IPv4-compatible block ::/96
 * (`[::127.0.0.1]` is `::7f00:1`, which some stacks still route to the
 * embedded IPv4 address), the 6bone's 3ffe::/16, and anything IANA assigns
 * later. Inside 2000::/3, the IETF protocol block 2001::/23 (Teredo,
 * benchmarking, ORCHID, AMT…) is refused whole: no subscriber lives there.
 * The one IPv6 form that passes with an IPv4 inside is ::ffff:a.b.c.d, and only
 * when that IPv4 address passes itself.
 */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV6_REFUSED_INSIDE_GLOBAL = [
  '2001::/23', // IETF protocol assignments
  '3ffe::/16', // the 6bone, returned to IANA
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return (
    v6.match(IPV6_GLOBAL_UNICAST) &&
    v6.range() === 'unicast' &&
    !IPV6_REFUSED_INSIDE_GLOBAL.some((range) => v6.match(range))
  );
}

/** The code of the error a refused lookup fails with. */
export const TARGET_REFUSED = 'ERR_WEBHOOK_TARGET_REFUSED';

/** A refused target: the message is what the attempt records. */
export class TargetRefusedError extends Error {
  readonly code = TARGET_REFUSED;
  constructor(readonly host: string) {
    super(`refused: ${host} resolves to a private address`);
    this.name = 'TargetRefusedError';
  }
}

/** Resolves a host name to its addresses (dns.lookup by default: /etc/hosts included). */
export type Resolve = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses);
    });
  });

/**
 * A `lookup` for the HTTP agent: it resolves the name and refuses it when any of
 * its addresses is not public. Checking here, at connect time, on the very
 * addresses the socket will use, is what defeats DNS rebinding (a name that
 * answered a public address when the URL was saved and 127.0.0.1 now). A name
 * with mixed public and private answers is refused whole: a subscriber never
 * needs one, and an attacker would rely on the connect order.
 */
export function guardedLookup(options: {
  allowPrivate: boolean;
  resolve?: Resolve;
}): LookupFunction {
  const resolve = options.resolve ?? systemResolve;
  return (hostname, lookupOptions, callback) => {
    const family =
      lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
    resolve(hostname, family).then(
      (addresses) => {
        const first = addresses[0];
        if (!first) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, '', 0);
          return;
        }
        if (!options.allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
          callback(new TargetRefusedError(hostname), '', 0);
          return;
        }
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/**
 * The up-front check of a URL's host: an IP literal never reaches the agent's
 * lookup (the socket connects to it directly), so it is classified here.
 * Returns the refusal, or null when the host may be tried.
 */
export function refuseLiteral(hostname: string, allowPrivate: boolean): TargetRefusedError | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || isIP(host) === 0) return null;
  return isPublicAddress(host) ? null : new TargetRefusedError(host);
}
