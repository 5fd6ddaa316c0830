import { useEffect, useState } from 'react';
import type { Api } from '../api/api.js';

/** The signed-in user's name; undefined until the server says (or when it cannot). */
export function useMe(api: Api): string | undefined {
  const [name, setName] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    api.me(controller.signal).then(
      (me) => setName(me.name),
      () => {
        // The header then names nobody; the rest of the page tells of any outage.
      },
    );
    return () => controller.abort();
  }, [api]);
  return name;
}
