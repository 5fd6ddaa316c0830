import { useCallback, useState } from 'react';
import { useTheme } from '../state/use-theme.js';
import { useSignInLink } from '../state/use-sign-in-link.js';
import { useToken } from '../state/use-token.js';
import { SignIn } from './sign-in.js';
import { Workspace } from './workspace.js';

/** Signed out: the token form. Signed in: the workspace. */
export function App() {
  const [token, setToken, linkCode] = useToken();
  const link = useSignInLink(linkCode, setToken);
  const [theme, toggleTheme] = useTheme();
  const [signInMessage, setSignInMessage] = useState<string>();
  const signOut = useCallback(
    (reason?: string) => {
      setSignInMessage(reason);
      setToken(null);
    },
    [setToken],
  );
  if (link.kind === 'exchanging')
    return (
      <main className="sign-in">
        <p role="status" className="card">
          Signing in…
        </p>
      </main>
    );
  // A refused link (used before, expired) says why; a browser already signed in just stays in.
  if (!token)
    return (
      <SignIn
        theme={theme}
        onToggleTheme={toggleTheme}
        {...(signInMessage
          ? { message: signInMessage }
          : link.kind === 'refused'
            ? { message: link.message }
            : {})}
        onSignIn={(next) => {
          setSignInMessage(undefined);
          setToken(next);
        }}
      />
    );
  return <Workspace token={token} theme={theme} onToggleTheme={toggleTheme} onSignOut={signOut} />;
}
