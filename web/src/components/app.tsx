import { useCallback, useState } from 'react';
import { useTheme } from '../state/use-theme.js';
import { useToken } from '../state/use-token.js';
import { SignIn } from './sign-in.js';
import { Workspace } from './workspace.js';

/** Signed out: the token form. Signed in: the workspace. */
export function App() {
  const [token, setToken] = useToken();
  const [theme, toggleTheme] = useTheme();
  const [signInMessage, setSignInMessage] = useState<string>();
  const signOut = useCallback(
    (reason?: string) => {
      setSignInMessage(reason);
      setToken(null);
    },
    [setToken],
  );
  if (!token)
    return (
      <SignIn
        theme={theme}
        onToggleTheme={toggleTheme}
        {...(signInMessage ? { message: signInMessage } : {})}
        onSignIn={(next) => {
          setSignInMessage(undefined);
          setToken(next);
        }}
      />
    );
  return <Workspace token={token} theme={theme} onToggleTheme={toggleTheme} onSignOut={signOut} />;
}
