import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * The SSRF guard of webhook delivery: addresses a webhook may not reach unless allowed (private,
 * loopback, link-local with the cloud metadata addresses, CGNAT, multicast, reserved, documentation),
 * checked on the addresses a host name resolves to at connect time, so DNS cannot swap them later.
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
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net6, bits, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped, -compatible or NAT64 IPv6 address, if any. */
function embeddedIpv4(address: string): string | undefined {
  const m = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

/** Whether an IP address is one webhooks may not reach by default. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address.toLowerCase());
    if (v4 !== undefined) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
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
