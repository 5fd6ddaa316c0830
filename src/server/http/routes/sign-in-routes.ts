import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthError, PolicyError } from '../../../errors/cadre-error.js';
import type { RequestSignals } from '../request-signals.js';
import { parseInput, signInBody } from '../request-schemas.js';
import type { SignInCodes } from '../sign-in-codes.js';

/** `cadre serve`'s sign-in link: its one-time codes, and the session token a spent one buys. */
export interface SignInLinks {
  codes: SignInCodes;
  /** A token for the person at this machine, good until the server stops. */
  mint(signal: AbortSignal): Promise<string>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * `POST /api/sign-in` `{code}` → `{ok, token}`, once per code, and only from
 * this machine: the socket's own address is checked (never a forwarded one),
 * so a proxy in front cannot carry a link's code in from elsewhere. The code
 * rides in the body, which no log line holds.
 */
export function signInRoutes(
  app: FastifyInstance,
  links: SignInLinks,
  requestSignal: RequestSignals,
): void {
  app.post('/api/sign-in', { config: { public: true } }, async (request, reply) => {
    if (!fromThisMachine(request))
      throw new PolicyError('Sign-in links work only on the machine that runs cadre serve.');
    const { code } = parseInput(signInBody, request.body, 'body');
    const found = links.codes.redeem(code);
    switch (found) {
      case 'ok':
        return { ok: true, token: await links.mint(requestSignal(reply)) };
      case 'used':
        throw new AuthError(
          'This sign-in link was already used. Sign in with a token (`cadre token create --user NAME`), or restart `cadre serve` for a new link.',
        );
      case 'expired':
        throw new AuthError(
          'This sign-in link has expired. Sign in with a token (`cadre token create --user NAME`), or restart `cadre serve` for a new link.',
        );
      case 'unknown':
        throw new AuthError('This sign-in link is not valid for this server.');
      default:
        return found satisfies never;
    }
  });
}

function fromThisMachine(request: FastifyRequest): boolean {
  return LOOPBACK.has(request.socket.remoteAddress ?? '');
}
