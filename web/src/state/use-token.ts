import { useCallback, useEffect, useState } from 'react';

const KEY = 'cadre.token';

/**
 * The API token lives in localStorage so a reload stays signed in. A sign-in
 * link from `cadre serve` (`/#token=…`) carries a one-time code, not a
 * token: it is handed back (to trade with the server) and dropped from the
 * address bar, so it is neither bookmarked nor left in the history.
 */
export function useToken(): [
  token: string | null,
  setToken: (token: string | null) => void,
  linkCode: string | undefined,
] {
  const [token, setTokenState] = useState(() => window.localStorage.getItem(KEY));
  // Read once; dropped from the address bar after render (an initializer may run twice).
  const [linkCode] = useState(() => tokenFromFragment(window.location.hash));
  useEffect(() => {
    if (linkCode)
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }, [linkCode]);
  const setToken = useCallback((next: string | null) => {
    if (next) window.localStorage.setItem(KEY, next);
    else window.localStorage.removeItem(KEY);
    setTokenState(next);
  }, []);
  return [token, setToken, linkCode];
}

/** `#token=…` → its value; anything else → undefined. */
export function tokenFromFragment(hash: string): string | undefined {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return value ? value : undefined;
}
