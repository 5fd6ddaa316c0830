import { useCallback, useEffect, useState } from 'react';

/** The page's client routes; the server answers index.html for each of them. */
export type Route =
  | { view: 'chat'; threadId?: string }
  | { view: 'run'; runId: string }
  | { view: 'trajectory'; runId: string }
  | { view: 'approvals' }
  | { view: 'grants' };

export const APPROVALS_PATH = '/approvals';
export const GRANTS_PATH = '/grants';

export function parseRoute(pathname: string): Route {
  if (/^\/approvals\/?$/.test(pathname)) return { view: 'approvals' };
  if (/^\/grants\/?$/.test(pathname)) return { view: 'grants' };
  const thread = /^\/threads\/([^/]+)\/?$/.exec(pathname);
  if (thread?.[1]) return { view: 'chat', threadId: decodeURIComponent(thread[1]) };
  const run = /^\/runs\/([^/]+)\/?$/.exec(pathname);
  if (run?.[1]) return { view: 'run', runId: decodeURIComponent(run[1]) };
  const recorded = /^\/runs\/([^/]+)\/trajectory\/?$/.exec(pathname);
  if (recorded?.[1]) return { view: 'trajectory', runId: decodeURIComponent(recorded[1]) };
  return { view: 'chat' };
}

export const threadPath = (id: string): string => `/threads/${encodeURIComponent(id)}`;
export const runPath = (id: string): string => `/runs/${encodeURIComponent(id)}`;
export const trajectoryPath = (id: string): string => `${runPath(id)}/trajectory`;

export type Navigate = (path: string, options?: { replace?: boolean }) => void;

export function useRoute(): [Route, Navigate] {
  const [route, setRoute] = useState(() => parseRoute(window.location.pathname));
  useEffect(() => {
    const onPop = () => setRoute(parseRoute(window.location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback<Navigate>((path, options) => {
    if (options?.replace) window.history.replaceState(null, '', path);
    else window.history.pushState(null, '', path);
    // A path may end in a fragment (`/threads/t1#approval-a1`): the route is its pathname.
    setRoute(parseRoute(new URL(path, window.location.origin).pathname));
  }, []);
  return [route, navigate];
}
