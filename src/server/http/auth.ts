import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthError } from '../../errors/cadre-error.js';
import type { AuthFailures } from './auth-failures.js';
import { failureKeys } from './failure-keys.js';
import { HttpProblem } from './http-problem.js';
import type { RequestSignals } from './request-signals.js';
import type { TokenCache, TokenLookup } from './token-cache.js';

export type { TokenLookup };

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user; empty on public routes. */
    userId: string;
    /** The authenticated user's name (what `cadre token create --user` named); empty on public routes. */
    userName: string;
    /** SHA-256 of the bearer token: the rate-limit key, so no plaintext token sits in memory maps. */
    tokenKey: string;
  }
  interface FastifyContextConfig {
    /** Served without a token (health checks). */
    public?: boolean;
  }
}

export interface AuthOptions {
  tokens: TokenCache;
  failures: AuthFailures;
  signals: RequestSignals;
}

// Tokens from `cadre token create` are short; anything longer never reaches the store.
const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,256})$/;

/**
 * Bearer token → `request.userId` on every non-public route. The token is
 * checked first, so a valid one is accepted whatever else its address sent.
 * A bad or missing one counts against its address and its token prefix:
 * 401 `auth_error` within the limit, 429 `rate_limited` with Retry-After
 * beyond it. Store tokens carry 256 random bits, so answering a limited
 * address's lookups tells a guesser nothing it could use.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const { tokens, failures, signals } = options;
  app.decorateRequest('userId', '');
  app.decorateRequest('userName', '');
  app.decorateRequest('tokenKey', '');
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.public === true) return;
    const token = bearerToken(request);
    const tokenKey = token ? createHash('sha256').update(token).digest('base64url') : '';
    const user = token ? await tokens.find(tokenKey, token, signals(reply)) : undefined;
    if (token && user) {
      request.userId = user.id;
      request.userName = user.name;
      request.tokenKey = tokenKey;
      return;
    }
    const waitMs = failures.fail(failureKeys(request.ip, token));
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      void reply.header('retry-after', String(seconds));
      throw new HttpProblem(
        429,
        'rate_limited',
        `Too many failed sign-ins; retry in ${seconds} seconds.`,
      );
    }
    throw new AuthError('Missing or invalid bearer token.');
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
}
