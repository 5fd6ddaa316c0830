import type { ApiToken, ListedToken, User } from '../records.js';
import type { CallOptions } from './call-options.js';

/** Which tokens `listTokens` answers; both fields narrow, none lists every token. */
export interface TokenFilter {
  userId?: string;
  userName?: string;
}

export type RevokeTokenResult =
  | {
      ok: true;
      token: ListedToken;
      /** It was revoked before; `token.revokedAt` is that first time. */
      alreadyRevoked: boolean;
    }
  | { ok: false; reason: 'not_found' }
  /** The prefix names several tokens (at most 10 listed). */
  | { ok: false; reason: 'ambiguous'; matches: ListedToken[] };

/** Users and their API tokens: who is calling. */
export interface AuthStore {
  /** Returns the user with this name, creating it on first use. */
  ensureUser(name: string, options?: CallOptions): Promise<User>;
  /** The plaintext token is returned once and never stored. */
  createToken(userId: string, options?: CallOptions): Promise<{ token: string; record: ApiToken }>;
  /** Looks the token up by its SHA-256 and notes when it was last used; a revoked token finds nobody. */
  findUserByToken(token: string, options?: CallOptions): Promise<User | undefined>;
  /** Tokens, revoked ones included, oldest first; never the token, only a prefix of its hash. */
  listTokens(filter?: TokenFilter, options?: CallOptions): Promise<ListedToken[]>;
  /** Revokes the token with this id, or the one whose hash starts with these hex digits (at least 6). */
  revokeToken(idOrPrefix: string, options?: CallOptions): Promise<RevokeTokenResult>;
}
