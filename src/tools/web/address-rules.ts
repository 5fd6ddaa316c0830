import ipaddr from 'ipaddr.js';
import { ConfigError } from '../../errors/index.js';
import { normalizeHost } from './host-name.js';

export { normalizeHost };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export type AddressVerdict = { blocked: false } | { blocked: true; range: string };

interface BlockedRange {
  cidr: [Address, number];
  /** Reads as `a <range> address`. */
  range: string;
}

const block = (cidr: string, range: string): BlockedRange => ({
  cidr: ipaddr.parseCIDR(cidr),
  range,
});

// Checked in order, so the narrow names (metadata, broadcast) come before the wide ranges holding them.
const IPV4_BLOCKED: readonly BlockedRange[] = [
  block('169.254.169.254/32', 'cloud metadata'),
  block('255.255.255.255/32', 'broadcast'),
  block('0.0.0.0/8', 'unspecified'),
  block('10.0.0.0/8', 'private'),
  block('100.64.0.0/10', 'carrier-grade NAT'),
  block('127.0.0.0/8', 'loopback'),
  block('169.254.0.0/16', 'link-local'),
  block('172.16.0.0/12', 'private'),
  block('192.0.0.0/24', 'reserved'),
  block('192.0.2.0/24', 'documentation'),
  block('192.88.99.0/24', 'reserved'),
  block('192.168.0.0/16', 'private'),
  block('198.18.0.0/15', 'reserved'),
  block('198.51.100.0/24', 'documentation'),
  block('203.0.113.0/24', 'documentation'),
  block('224.0.0.0/4', 'multicast'),
  block('240.0.0.0/4', 'reserved'),
];

const IPV6_BLOCKED: readonly BlockedRange[] = [
  block('::/128', 'unspecified'),
  block('::1/128', 'loopback'),
  block('fd00:ec2::254/128', 'cloud metadata'),
  block('64:ff9b:1::/48', 'reserved'),
  block('100::/64', 'reserved'),
  block('2001::/32', 'Teredo'),
  block('2001:2::/48', 'reserved'),
  block('2001:db8::/32', 'documentation'),
  block('fc00::/7', 'private'),
  block('fe80::/10', 'link-local'),
  block('fec0::/10', 'private'),
  block('ff00::/8', 'multicast'),
];

/**
 * IPv6 ranges that carry an IPv4 address: they are judged by that address,
 * since a host or gateway may deliver them to it. `offset` is the index of the
 * 16-bit part where the IPv4 address starts.
 */
const IPV4_CARRIERS: readonly { cidr: [Address, number]; label: string; offset: number }[] = [
  { cidr: ipaddr.parseCIDR('::ffff:0:0/96'), label: 'IPv4-mapped', offset: 6 },
  { cidr: ipaddr.parseCIDR('::ffff:0:0:0/96'), label: 'IPv4-translated', offset: 6 },
  { cidr: ipaddr.parseCIDR('::/96'), label: 'IPv4-compatible', offset: 6 },
  { cidr: ipaddr.parseCIDR('64:ff9b::/96'), label: 'NAT64', offset: 6 },
  { cidr: ipaddr.parseCIDR('2002::/16'), label: '6to4', offset: 1 },
];

/**
 * Parses an IP literal in any spelling a resolver or URL might produce:
 * dotted, decimal (`2130706433`), octal (`0177.0.0.1`), hex, short (`127.1`),
 * bracketed or zoned IPv6. Undefined when `text` is not an address.
 */
export function parseAddress(text: string): Address | undefined {
  let value = text.trim();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  value = value.replace(/%.*$/, '');
  if (value === '' || !ipaddr.isValid(value)) return undefined;
  try {
    return ipaddr.parse(value);
  } catch {
    return undefined;
  }
}

/** True when `host` is an IP literal (in any spelling `parseAddress` takes). */
export const isIpLiteral = (host: string): boolean => parseAddress(host) !== undefined;

/**
 * Whether web_fetch refuses to connect to `ip` unless allowed: anything not
 * plainly on the public internet. Text that is not an address is blocked too.
 */
export function isBlockedAddress(ip: string): AddressVerdict {
  const address = parseAddress(ip);
  if (address === undefined) return { blocked: true, range: 'unrecognised' };
  return judge(address);
}

function judge(address: Address): AddressVerdict {
  if (address instanceof ipaddr.IPv4) return judgeIn(address, IPV4_BLOCKED);
  const v6 = address;
  // `::` and `::1` sit inside `::/96` but are IPv6's own, not carriers.
  const own = judgeIn(v6, IPV6_BLOCKED.slice(0, 2));
  if (own.blocked) return own;
  for (const carrier of IPV4_CARRIERS) {
    if (!v6.match(carrier.cidr)) continue;
    const inner = judge(embeddedIPv4(v6, carrier.offset));
    return inner.blocked ? { blocked: true, range: `${carrier.label} ${inner.range}` } : inner;
  }
  return judgeIn(v6, IPV6_BLOCKED);
}

function judgeIn(address: Address, ranges: readonly BlockedRange[]): AddressVerdict {
  for (const { cidr, range } of ranges) {
    if (address.kind() === cidr[0].kind() && address.match(cidr)) return { blocked: true, range };
  }
  return { blocked: false };
}

function embeddedIPv4(address: ipaddr.IPv6, offset: number): ipaddr.IPv4 {
  const high = address.parts[offset] ?? 0;
  const low = address.parts[offset + 1] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** What `CADRE_FETCH_ALLOW` lets through despite the blocked ranges. */
export interface AllowList {
  /** Host names trusted whatever they resolve to; `*.name` entries are kept as `.name`. */
  hosts: readonly string[];
  /** Addresses and ranges; a single address is a full-length range. */
  ranges: readonly [Address, number][];
}

export const EMPTY_ALLOW: AllowList = Object.freeze({ hosts: [], ranges: [] });

const HOST_NAME = /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/**
 * Parses `CADRE_FETCH_ALLOW`: entries separated by commas or white space, each
 * an IP address (`127.0.0.1`, `::1`), a CIDR range (`10.0.0.0/8`, `fd00::/8`),
 * a host name (`localhost`, `intranet.example`) or `*.name` for every
 * subdomain of `name`. Throws ConfigError naming the entries it cannot read.
 */
export function parseFetchAllow(value: string | undefined): AllowList {
  const hosts: string[] = [];
  const ranges: [Address, number][] = [];
  const bad: string[] = [];
  for (const entry of (value ?? '').split(/[\s,]+/)) {
    if (entry === '') continue;
    if (entry.includes('/')) {
      const range = parseRange(entry);
      if (range) ranges.push(range);
      else bad.push(entry);
      continue;
    }
    const address = parseAddress(entry);
    if (address) {
      ranges.push(fullRange(unmapped(address)));
      continue;
    }
    const host = normalizeHost(entry);
    if (HOST_NAME.test(host)) hosts.push(host.startsWith('*.') ? host.slice(1) : host);
    else bad.push(entry);
  }
  if (bad.length > 0) {
    throw new ConfigError(
      `CADRE_FETCH_ALLOW has entries that are not an address, CIDR range or host name: ${bad.join(', ')}`,
    );
  }
  return { hosts, ranges };
}

function parseRange(entry: string): [Address, number] | undefined {
  try {
    const [address, bits] = ipaddr.parseCIDR(entry);
    // `::ffff:10.0.0.0/104` means `10.0.0.0/8`; resolvers hand back the IPv4 form.
    if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && bits >= 96)
      return [address.toIPv4Address(), bits - 96];
    return [address, bits];
  } catch {
    return undefined;
  }
}

const fullRange = (address: Address): [Address, number] => [
  address,
  address instanceof ipaddr.IPv4 ? 32 : 128,
];

const unmapped = (address: Address): Address =>
  address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()
    ? address.toIPv4Address()
    : address;

/**
 * Whether the allow-list lets web_fetch reach `ip` under the name `host`:
 * the name is listed (or is a subdomain of a `*.name` entry), or the address
 * falls in a listed range.
 */
export function isAllowed(host: string, ip: string, allow: AllowList): boolean {
  const name = normalizeHost(host);
  const byName = allow.hosts.some((entry) =>
    entry.startsWith('.') ? name.endsWith(entry) : name === entry,
  );
  if (byName) return true;
  const parsed = parseAddress(ip);
  if (parsed === undefined) return false;
  const address = unmapped(parsed);
  return allow.ranges.some(
    ([base, bits]) => base.kind() === address.kind() && address.match([base, bits]),
  );
}
