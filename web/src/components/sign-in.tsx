import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/api-error.js';
import { createApi } from '../api/api.js';
import type { Theme } from '../state/use-theme.js';
import { ThemeToggle } from './theme-toggle.js';

interface Props {
  theme: Theme;
  message?: string;
  onToggleTheme(): void;
  onSignIn(token: string): void;
}

/** Asks for an API token (`cadre token create --user NAME`) and checks it before keeping it. */
export function SignIn({ theme, message, onToggleTheme, onSignIn }: Props) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(message);
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) return setError('Enter your API token.');
    setChecking(true);
    try {
      await createApi(value, () => undefined).listThreads();
      onSignIn(value);
    } catch (e) {
      setError(
        e instanceof ApiError && e.status === 401
          ? 'That token was not accepted.'
          : `Could not reach the server: ${e instanceof Error ? e.message : 'unknown error'}`,
      );
    } finally {
      setChecking(false);
    }
  };

  return (
    <main className="sign-in">
      <form
        className="card sign-in-form"
        onSubmit={(e) => void submit(e)}
        aria-labelledby="sign-in-title"
      >
        <div className="sign-in-head">
          <h1 id="sign-in-title">Sign in to Cadre</h1>
          <ThemeToggle theme={theme} onToggle={onToggleTheme} />
        </div>
        <label htmlFor="token">API token</label>
        <input
          id="token"
          type="password"
          autoComplete="current-password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby="token-help"
          aria-invalid={error ? true : undefined}
          autoFocus
        />
        <p id="token-help" className="muted">
          Create one with <code>cadre token create --user NAME</code>. It is kept in this browser.
        </p>
        {error && (
          <p role="alert" className="notice notice-error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={checking}>
          {checking ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
