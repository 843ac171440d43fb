import { BlockList, isIP } from 'node:net';

/**
 * Address ranges a user-given URL must not reach (SSRF guard): this host, private and link-local
 * networks, carrier-grade NAT, unspecified, multicast and reserved addresses, and the IPv6 forms
 * that embed an IPv4 address a gateway or the host may translate (IPv4-compatible `::/96`,
 * IPv4-translated `::ffff:0:0:0/96`, NAT64, 6to4, Teredo). IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`, `::ffff:0:0/96`) match the IPv4 rules (node's BlockList maps them).
 */
const RANGES: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", unspecified
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata services
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 96, 'ipv6'], // unspecified, loopback, and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated (SIIT, RFC 2765): ::ffff:0:a.b.c.d
  ['64:ff9b::', 96, 'ipv6'], // NAT64: reaches IPv4 addresses through a gateway
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215)
  ['100::', 64, 'ipv6'], // discard-only
  ['2001::', 32, 'ipv6'], // Teredo: embeds an IPv4 address
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4: embeds an IPv4 address
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const blocked = new BlockList();
for (const [net, prefix, type] of RANGES) blocked.addSubnet(net, prefix, type);

/** Whether `address` (an IP literal) lies in a range user-given URLs must not reach; non-IPs are. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (!family) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The administrator's exceptions (FETCH_ALLOWED_HOSTS): host names (exact, case-insensitive), IP
 * addresses and CIDR ranges (`10.1.0.0/16`) that may be fetched although they are private.
 */
export class FetchAllowList {
  private readonly hosts = new Set<string>();
  private readonly nets = new BlockList();

  constructor(entries: string[]) {
    for (const raw of entries) {
      const entry = raw
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, '');
      const [ip, prefix] = entry.split('/');
      const family = isIP(ip);
      if (family && prefix !== undefined) this.nets.addSubnet(ip, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
      else if (family) this.nets.addAddress(ip, family === 4 ? 'ipv4' : 'ipv6');
      else if (entry) this.hosts.add(entry);
    }
  }

  /** Whether a URL with host name `host` (lower-case, without brackets) resolving to `address` may be fetched. */
  allows(host: string, address: string): boolean {
    if (this.hosts.has(host)) return true;
    const family = isIP(address);
    return family !== 0 && this.nets.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}
