import { isIP } from 'node:net';
import { ConfigError } from '../../errors/cadre-error.js';

/** What Fastify's `trustProxy` is given: whom to believe about the client's address. */
export type TrustProxy = boolean | string[];

/**
 * Parses CADRE_TRUST_PROXY: `true` (every hop; only when nothing reaches the
 * server except through the proxy) or a comma list of proxy addresses or
 * CIDR ranges. Unset or `false` trusts no one: X-Forwarded-For is then
 * ignored, since anyone could send it to dodge per-address limits. No hop
 * counts: Fastify ignores them, as they cannot vouch for the nearest peer.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > maxBits);
    if (family === 0 || badBits || extra !== undefined)
      throw new ConfigError(
        `CADRE_TRUST_PROXY must be true, false or a comma list of addresses or CIDR ranges; '${entry}' is none of these.`,
      );
  }
  return entries;
}
