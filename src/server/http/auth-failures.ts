/** Failed sign-ins a client address (or a token prefix) may make per window before the next are answered 429. */
export interface AuthFailureLimit {
  max: number;
  windowMs: number;
}

const DEFAULT_AUTH_FAILURE_LIMIT = { max: 20, windowMs: 60_000 } as const;

/** Keys remembered at most per kind; the oldest go first. */
const MAX_ENTRIES = 10_000;

/** What a failed sign-in is counted under. */
export interface FailureKeys {
  /** The client's address (see clientKey). */
  client: string;
  /** A digest of the presented token's first characters; absent without a token. */
  prefix?: string;
}

export interface AuthFailures {
  /**
   * Counts one failure under each key and answers how many milliseconds
   * those keys stay limited: 0 while every key is within its limit.
   */
  fail(keys: FailureKeys, now?: number): number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Counts failed sign-ins in fixed windows, per client address and per
 * token prefix, bounded in memory. Only failures are counted: a valid token
 * is accepted whatever its address did, so a guesser behind the same proxy
 * or NAT cannot lock anyone out. Every bad attempt counts, blocked or not,
 * so a guesser stays limited for as long as it keeps guessing; the prefix
 * count catches guesses at one token spread over many addresses.
 */
export function createAuthFailures(
  limit: AuthFailureLimit = DEFAULT_AUTH_FAILURE_LIMIT,
): AuthFailures {
  if (!Number.isSafeInteger(limit.max) || limit.max < 1 || !(limit.windowMs > 0))
    throw new RangeError('The failed sign-in limit needs max ≥ 1 and windowMs > 0.');
  // Separate maps: a flood of fresh prefixes must not push a guesser's address out.
  const clients = new Map<string, Window>();
  const prefixes = new Map<string, Window>();
  const count = (map: Map<string, Window>, key: string, now: number): number => {
    const window = map.get(key);
    if (window && now - window.start < limit.windowMs) {
      window.count += 1;
      return window.count > limit.max ? window.start + limit.windowMs - now : 0;
    }
    map.delete(key);
    remember(map, key, { start: now, count: 1 });
    return 0;
  };
  return {
    fail(keys, now = Date.now()) {
      const byClient = count(clients, keys.client, now);
      const byPrefix = keys.prefix === undefined ? 0 : count(prefixes, keys.prefix, now);
      return Math.max(byClient, byPrefix);
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
