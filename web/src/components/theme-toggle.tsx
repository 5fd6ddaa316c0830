import type { Theme } from '../state/use-theme.js';

interface Props {
  theme: Theme;
  onToggle(): void;
}

export function ThemeToggle({ theme, onToggle }: Props) {
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="ghost"
      onClick={onToggle}
      aria-label={`Switch to ${next} theme`}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>{' '}
      {next === 'dark' ? 'Dark' : 'Light'}
    </button>
  );
}
