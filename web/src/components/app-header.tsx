import type { Theme } from '../state/use-theme.js';
import { ThemeToggle } from './theme-toggle.js';

interface Props {
  theme: Theme;
  onToggleTheme(): void;
  onSignOut(): void;
  /** Who is signed in, once the server has said. */
  user?: string;
}

export function AppHeader({ theme, onToggleTheme, onSignOut, user }: Props) {
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <span className="brand">Cadre</span>
      <div className="header-actions">
        {user && (
          <span className="signed-in muted">
            Signed in as <strong>{user}</strong>
          </span>
        )}
        <ThemeToggle theme={theme} onToggle={onToggleTheme} />
        <button type="button" className="ghost" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
