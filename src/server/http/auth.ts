import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthError } from '../../errors/cadre-error.js';
import type { Store } from '../../store/types.js';

/** All auth needs of the store. */
export type TokenLookup = Pick<Store, 'findUserByToken'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user; empty on public routes. */
    userId: string;
    /** SHA-256 of the bearer token: the rate-limit key, so no plaintext token sits in memory maps. */
    tokenKey: string;
  }
  interface FastifyContextConfig {
    /** Served without a token (health checks). */
    public?: boolean;
  }
}

// Tokens from `cadre token create` are short; anything longer never reaches the store.
const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,256})$/;

/** Bearer token → `request.userId` on every non-public route; otherwise 401 `auth_error`. */
export function registerAuth(
  app: FastifyInstance,
  tokens: TokenLookup,
  lifetime: AbortSignal,
): void {
  app.decorateRequest('userId', '');
  app.decorateRequest('tokenKey', '');
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true) return;
    const token = bearerToken(request);
    const user = token ? await tokens.findUserByToken(token, lifetime) : undefined;
    if (!token || !user) throw new AuthError('Missing or invalid bearer token.');
    request.userId = user.id;
    request.tokenKey = createHash('sha256').update(token).digest('base64url');
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
}
