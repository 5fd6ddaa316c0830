import { useCallback, useEffect, useState } from 'react';
import type { Api } from '../api/api.js';
import type { Thread } from '../api/wire-types.js';
import { failureText } from './failure-text.js';

export interface Threads {
  threads: Thread[];
  error?: string;
  refresh(): void;
}

/** The signed-in user's threads, newest first; refreshed after every run. */
export function useThreads(api: Api): Threads {
  const [threads, setThreads] = useState<Thread[]>([]);
  const [error, setError] = useState<string>();
  const [key, setKey] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const load = async () => {
      try {
        const list = await api.listThreads(controller.signal);
        setThreads([...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)));
        setError(undefined);
      } catch (e) {
        // The last list stays; the chat tells the person what failed where they act.
        if (!controller.signal.aborted) setError(failureText(e, 'load').text);
      }
    };
    void load();
    return () => controller.abort();
  }, [api, key]);
  const refresh = useCallback(() => setKey((k) => k + 1), []);
  return { threads, ...(error ? { error } : {}), refresh };
}
