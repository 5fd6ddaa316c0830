import type { Theme } from '../state/use-theme.js';
import { ThemeToggle } from './theme-toggle.js';

interface Props {
  theme: Theme;
  onToggleTheme(): void;
  onSignOut(): void;
}

export function AppHeader({ theme, onToggleTheme, onSignOut }: Props) {
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <span className="brand">Cadre</span>
      <div className="header-actions">
        <ThemeToggle theme={theme} onToggle={onToggleTheme} />
        <button type="button" className="ghost" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
