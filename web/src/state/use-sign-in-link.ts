import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/api-error.js';
import { exchangeSignInCode } from '../api/sign-in-api.js';

/** Where the link's one-time code stands: none, being traded, or refused (and why). */
export type SignInLinkState =
  { kind: 'none' } | { kind: 'exchanging' } | { kind: 'refused'; message: string };

/**
 * Trades the sign-in link's code once for a session token. Once only: the
 * server spends the code on the first try, so a second request (a remount)
 * would be refused as a reused link.
 */
export function useSignInLink(
  code: string | undefined,
  onToken: (token: string) => void,
): SignInLinkState {
  const [state, setState] = useState<SignInLinkState>(
    code ? { kind: 'exchanging' } : { kind: 'none' },
  );
  const started = useRef(false);
  useEffect(() => {
    if (!code || started.current) return;
    started.current = true;
    exchangeSignInCode(code).then(
      (token) => {
        onToken(token);
        setState({ kind: 'none' });
      },
      (error: unknown) =>
        setState({
          kind: 'refused',
          message:
            error instanceof ApiError
              ? error.message
              : 'Could not reach the server to use the sign-in link.',
        }),
    );
  }, [code, onToken]);
  return state;
}
