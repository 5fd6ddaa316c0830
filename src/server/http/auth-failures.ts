/** Failed sign-ins a client may make per window before it is refused with 429. */
export interface AuthFailureLimit {
  max: number;
  windowMs: number;
}

export const DEFAULT_AUTH_FAILURE_LIMIT = { max: 20, windowMs: 60_000 } as const;

/** Clients (and known tokens) remembered at most; the oldest go first. */
const MAX_ENTRIES = 10_000;
/** How long a token that worked is let through a blocked client's address. */
const KNOWN_TOKEN_MS = 24 * 60 * 60 * 1000;

export interface AuthFailures {
  /** Milliseconds until `client` may try unknown tokens again; 0 when it may now. */
  blockedFor(client: string, now?: number): number;
  /** One more failure of `client`. */
  fail(client: string, now?: number): void;
  /** A token (its hash) that just worked: it still works from a blocked client. */
  succeed(tokenKey: string, now?: number): void;
  /** Whether `tokenKey` worked within the last day. */
  known(tokenKey: string, now?: number): boolean;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Counts failed sign-ins per client in fixed windows, bounded in memory.
 * A blocked client is refused before its token is looked up, so guessing
 * gets no answer; tokens that worked in the last day are still looked up,
 * so users sharing an address (NAT, a proxy) with a guesser keep working.
 */
export function createAuthFailures(
  limit: AuthFailureLimit = DEFAULT_AUTH_FAILURE_LIMIT,
): AuthFailures {
  if (!Number.isSafeInteger(limit.max) || limit.max < 1 || !(limit.windowMs > 0))
    throw new RangeError('The failed sign-in limit needs max ≥ 1 and windowMs > 0.');
  const failures = new Map<string, Window>();
  const tokens = new Map<string, number>();
  const current = (client: string, now: number): Window | undefined => {
    const window = failures.get(client);
    if (window && now - window.start < limit.windowMs) return window;
    if (window) failures.delete(client);
    return undefined;
  };
  return {
    blockedFor(client, now = Date.now()) {
      const window = current(client, now);
      return window && window.count >= limit.max ? window.start + limit.windowMs - now : 0;
    },
    fail(client, now = Date.now()) {
      const window = current(client, now);
      if (window) window.count += 1;
      else remember(failures, client, { start: now, count: 1 });
    },
    succeed(tokenKey, now = Date.now()) {
      // Re-inserted so that the map's order stays oldest first.
      tokens.delete(tokenKey);
      remember(tokens, tokenKey, now);
    },
    known(tokenKey, now = Date.now()) {
      const at = tokens.get(tokenKey);
      return at !== undefined && now - at < KNOWN_TOKEN_MS;
    },
  };
}

/** Sets `key`, first dropping the oldest entries if the map is full (Maps iterate in insertion order). */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  for (const oldest of map.keys()) {
    if (map.size < MAX_ENTRIES) break;
    map.delete(oldest);
  }
  map.set(key, value);
}
