import { isIPv6 } from 'node:net';

/**
 * The key failed sign-ins are counted under: the IPv4 address, or the /64
 * of an IPv6 one — a single IPv6 host usually owns a whole /64 and could
 * otherwise take a fresh address for every attempt.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const address = ip.split('%')[0] ?? ip;
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded, leading zeros dropped. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const split = (part: string) => (part === '' ? [] : part.split(':'));
  // A trailing dotted IPv4 part stands for two groups; only the first four groups matter here.
  const count = (parts: string[]) => parts.reduce((n, part) => n + (part.includes('.') ? 2 : 1), 0);
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - count(left) - count(right)).fill('0');
  return [...left, ...zeros, ...right].map((group) =>
    group.includes('.') ? group : (parseInt(group, 16) || 0).toString(16),
  );
}
