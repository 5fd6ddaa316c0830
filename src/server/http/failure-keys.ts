import { createHash } from 'node:crypto';
import { PRESENTED_TOKEN_PREFIX_LENGTH } from '../../store/token-prefix.js';
import type { FailureKeys } from './auth-failures.js';
import { clientKey } from './client-key.js';

/**
 * The keys a failed sign-in counts under: the client's address (behind a
 * trusted proxy, the forwarded one) and a digest of the token's first
 * characters, hashed so that no part of a token sits in memory maps.
 */
export function failureKeys(ip: string | undefined, token: string | undefined): FailureKeys {
  const client = clientKey(ip);
  if (token === undefined) return { client };
  const prefix = createHash('sha256')
    .update(token.slice(0, PRESENTED_TOKEN_PREFIX_LENGTH))
    .digest('base64url');
  return { client, prefix };
}
