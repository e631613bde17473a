import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard of webhook delivery: addresses a webhook may not reach unless allowed, checked on
 * the addresses a host name resolves to at connect time, so DNS cannot swap them later. Only global
 * unicast is allowed: every special range ipaddr.js knows (private, loopback, link-local with the
 * cloud metadata addresses, CGNAT, multicast, reserved, documentation, benchmarking, unique local,
 * discard, …) is refused. An IPv6 address carrying an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d` and NAT64's well-known
 * `64:ff9b::/96`) is judged by the IPv4 address it carries; NAT64's local-use `64:ff9b:1::/48`,
 * 6to4 `2002::/16` and Teredo `2001::/32` are refused outright (they reach IPv4 hosts by ways this
 * guard cannot follow: a site's own translator, relays, an obfuscated client address).
 */
const blocked = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net4, bits, 'ipv4');
}

const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** The IPv4 address in the low 32 bits of an IPv6 address. */
function low32(a: ipaddr.IPv6): ipaddr.IPv4 {
  const b = a.toByteArray();
  return new ipaddr.IPv4(b.slice(12, 16));
}

function forbiddenIpv4(a: ipaddr.IPv4): boolean {
  return a.range() !== 'unicast' || blocked.check(a.toString(), 'ipv4');
}

function forbiddenIpv6(a: ipaddr.IPv6): boolean {
  const range = a.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || a.match(NAT64_WELL_KNOWN)) return forbiddenIpv4(low32(a));
  // `::` and `::1` are in ::/96 too, and refused as 0.0.0.0 and 0.0.0.1 are.
  if (a.match(IPV4_COMPATIBLE)) return forbiddenIpv4(low32(a));
  return range !== 'unicast';
}

/** Whether an IP address is one webhooks may not reach by default (anything not an IP address is). */
export function isForbiddenAddress(address: string): boolean {
  if (!net.isIP(address) || !ipaddr.isValid(address)) return true;
  const a = ipaddr.parse(address);
  return a.kind() === 'ipv4' ? forbiddenIpv4(a as ipaddr.IPv4) : forbiddenIpv6(a as ipaddr.IPv6);
}

export interface GuardOptions {
  allowPrivate: boolean;
  /** Lowercase host names (or IP literals) exempt from the guard. */
  allowHosts: string[];
}

/** The host of a URL as compared with the allow list: lowercase, no IPv6 brackets, no trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

export function hostAllowed(host: string, opts: GuardOptions): boolean {
  return opts.allowPrivate || opts.allowHosts.includes(host);
}

/** At creation: why a URL naming a forbidden address literally is refused, or undefined. */
export function refuseLiteralUrl(url: URL, opts: GuardOptions): string | undefined {
  const host = hostOf(url);
  if (hostAllowed(host, opts) || !net.isIP(host) || !isForbiddenAddress(host)) return undefined;
  return `url points to ${host}, a private, loopback, link-local or otherwise reserved address; webhooks may not reach those (the server's QUIRE_WEBHOOK_ALLOW_PRIVATE or QUIRE_WEBHOOK_ALLOW_HOSTS can allow them).`;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'EWEBHOOKFORBIDDEN';
}

/**
 * A `lookup` for net.connect that resolves as usual and refuses when any resolved address is
 * forbidden. (IP literals never reach a lookup: `send` checks them before connecting.)
 */
export function guardedLookup(): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address));
      if (bad || list.length === 0) {
        return callback(new ForbiddenAddressError(`${hostname} resolves to ${bad?.address ?? 'no address'}, a private, loopback, link-local or reserved address: refused (QUIRE_WEBHOOK_ALLOW_PRIVATE / QUIRE_WEBHOOK_ALLOW_HOSTS)`));
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  }) as LookupFunction;
}
