import { useCallback, useEffect, useState } from 'react';
import type { GrantView, InboxApi } from '../api/inbox-api.js';
import { failureText } from './failure-text.js';

export interface Grants {
  grants: GrantView[];
  loaded: boolean;
  error?: string;
  refresh(): void;
}

/** The signed-in person's "always allow" grants, oldest first. */
export function useGrants(api: InboxApi): Grants {
  const [state, setState] = useState<Omit<Grants, 'refresh'>>({ grants: [], loaded: false });
  const [key, setKey] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    api.grants(controller.signal).then(
      (grants) => setState({ grants, loaded: true }),
      (e: unknown) => {
        if (!controller.signal.aborted)
          setState((s) => ({ ...s, loaded: true, error: failureText(e, 'load').text }));
      },
    );
    return () => controller.abort();
  }, [api, key]);
  const refresh = useCallback(() => setKey((k) => k + 1), []);
  return { ...state, refresh };
}
