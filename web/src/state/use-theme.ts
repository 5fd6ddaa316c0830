import { useCallback, useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';
const KEY = 'cadre.theme';
const query = '(prefers-color-scheme: dark)';

function systemTheme(): Theme {
  return window.matchMedia(query).matches ? 'dark' : 'light';
}

function storedTheme(): Theme | null {
  const value = window.localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : null;
}

/** Follows the system theme until the person picks one with the toggle. */
export function useTheme(): [Theme, () => void] {
  const [chosen, setChosen] = useState<Theme | null>(storedTheme);
  const [system, setSystem] = useState<Theme>(systemTheme);
  useEffect(() => {
    const media = window.matchMedia(query);
    const onChange = () => setSystem(systemTheme());
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  const theme = chosen ?? system;
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const toggle = useCallback(() => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    window.localStorage.setItem(KEY, next);
    setChosen(next);
  }, [theme]);
  return [theme, toggle];
}
