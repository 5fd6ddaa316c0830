import { useCallback, useState } from 'react';

const KEY = 'cadre.token';

/** The API token lives in localStorage so a reload stays signed in. */
export function useToken(): [string | null, (token: string | null) => void] {
  const [token, setTokenState] = useState(() => window.localStorage.getItem(KEY));
  const setToken = useCallback((next: string | null) => {
    if (next) window.localStorage.setItem(KEY, next);
    else window.localStorage.removeItem(KEY);
    setTokenState(next);
  }, []);
  return [token, setToken];
}
