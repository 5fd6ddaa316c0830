import type { Store, User } from '../../store/types.js';

/** All auth needs of the store. */
export interface TokenLookup {
  readonly auth: Pick<Store['auth'], 'findUserByToken'>;
}

export interface TokenCacheOptions {
  /** How long a token found valid is trusted without asking the store: a revoked token works at most this long. */
  ttlMs: number;
  /** Entries kept; the oldest go first. */
  max: number;
  now?: () => number;
}

export const DEFAULT_TOKEN_CACHE: TokenCacheOptions = { ttlMs: 5_000, max: 10_000 };

export interface TokenCache {
  /** `key` is the token's SHA-256 (no plaintext token is kept in memory). */
  find(key: string, token: string, signal?: AbortSignal): Promise<User | undefined>;
}

/**
 * Successful token lookups, kept for a few seconds: every request is
 * authenticated, and asking the store each time was a statement per run.
 * Failures are never cached, so a new token works at once.
 */
export function tokenCache(lookup: TokenLookup, options: TokenCacheOptions): TokenCache {
  const now = options.now ?? Date.now;
  const known = new Map<string, { user: User; until: number }>();
  return {
    async find(key, token, signal) {
      const hit = known.get(key);
      if (hit && hit.until > now()) return hit.user;
      known.delete(key);
      const user = await lookup.auth.findUserByToken(token, { signal });
      if (!user || options.ttlMs <= 0) return user;
      if (known.size >= options.max) known.delete(known.keys().next().value as string);
      known.set(key, { user, until: now() + options.ttlMs });
      return user;
    },
  };
}
