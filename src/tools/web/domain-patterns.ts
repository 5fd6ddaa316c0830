import { normalizeHost } from './host-name.js';

/**
 * The domain a pattern names: `domain:example.com` (Claude Code's
 * `WebFetch(domain:example.com)`), a bare `example.com`, or `*.example.com`.
 * `*` (or an empty pattern) stands for every domain.
 */
function patternDomain(pattern: string): string {
  const value = pattern.trim().replace(/^domain:/i, '');
  const host = normalizeHost(value);
  return host.startsWith('*.') ? host.slice(2) : host;
}

/** True when `host` is `domain` or one of its subdomains. */
function hostInDomain(host: string, domain: string): boolean {
  const name = normalizeHost(host);
  return name === domain || name.endsWith(`.${domain}`);
}

/**
 * Why fetching `url` is outside the domains `patterns` allow, or undefined
 * when it is inside. A URL that cannot be read is outside.
 */
export function outsideDomains(url: string, patterns: readonly string[]): string | undefined {
  const domains = patterns.map(patternDomain);
  if (domains.length === 0 || domains.some((domain) => domain === '*' || domain === '')) {
    return undefined;
  }
  let host: string;
  try {
    host = normalizeHost(new URL(url).hostname);
  } catch {
    return `${JSON.stringify(url)} is not a valid URL, so it cannot be checked against the allowed domains.`;
  }
  if (domains.some((domain) => hostInDomain(host, domain))) return undefined;
  return `web_fetch is limited to ${domains.join(', ')} (and their subdomains); ${host} is outside.`;
}
