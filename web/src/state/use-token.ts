import { useCallback, useState } from 'react';

const KEY = 'cadre.token';

/**
 * The API token lives in localStorage so a reload stays signed in. A sign-in
 * link from `cadre serve` (`/#token=…`) is taken once and dropped from the
 * address bar, so it is neither bookmarked nor left in the history.
 */
export function useToken(): [string | null, (token: string | null) => void] {
  const [token, setTokenState] = useState(() => {
    const linked = tokenFromFragment(window.location.hash);
    if (!linked) return window.localStorage.getItem(KEY);
    window.localStorage.setItem(KEY, linked);
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    return linked;
  });
  const setToken = useCallback((next: string | null) => {
    if (next) window.localStorage.setItem(KEY, next);
    else window.localStorage.removeItem(KEY);
    setTokenState(next);
  }, []);
  return [token, setToken];
}

/** `#token=cadre_…` → the token; anything else → undefined. */
export function tokenFromFragment(hash: string): string | undefined {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return value ? value : undefined;
}
