import { createHash, randomBytes } from 'node:crypto';

/** What redeeming a sign-in code found. */
export type SignInRedeem = 'ok' | 'used' | 'expired' | 'unknown';

/**
 * One-time codes for `cadre serve`'s sign-in link: each is good once, for a
 * short while. Only hashes are kept, so the codes themselves sit nowhere in
 * memory after they are handed out.
 */
export interface SignInCodes {
  /** A fresh code (256 random bits, base64url). */
  issue(): string;
  /** Spends the code: `ok` the first time within its life, never again. */
  redeem(code: string): SignInRedeem;
}

export const SIGN_IN_CODE_TTL_MS = 15 * 60_000;

export function createSignInCodes(
  options: { ttlMs?: number; now?: () => number } = {},
): SignInCodes {
  const ttlMs = options.ttlMs ?? SIGN_IN_CODE_TTL_MS;
  const now = options.now ?? Date.now;
  const codes = new Map<string, { expiresAt: number; used: boolean }>();
  const hash = (code: string) => createHash('sha256').update(code).digest('base64url');
  return {
    issue() {
      const code = randomBytes(32).toString('base64url');
      codes.set(hash(code), { expiresAt: now() + ttlMs, used: false });
      return code;
    },
    redeem(code) {
      const entry = codes.get(hash(code));
      if (!entry) return 'unknown';
      if (entry.used) return 'used';
      if (now() >= entry.expiresAt) return 'expired';
      entry.used = true;
      return 'ok';
    },
  };
}
