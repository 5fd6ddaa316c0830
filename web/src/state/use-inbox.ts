import { useCallback, useEffect, useMemo, useState } from 'react';
import type { InboxApi } from '../api/inbox-api.js';
import type { ApprovalView } from '../api/wire-types.js';
import { failureText } from './failure-text.js';

/** Pages read at most: the badge says "more" beyond them rather than loading thousands. */
const MAX_PAGES = 5;
/** Approvals also arrive from /v1 and MCP clients, which the page hears nothing of. */
const POLL_MS = 10_000;

export interface Inbox {
  approvals: ApprovalView[];
  /** How many wait in each thread, by thread id. */
  byThread: ReadonlyMap<string, number>;
  /** More are waiting than were loaded. */
  more: boolean;
  loaded: boolean;
  error?: string;
  refresh(): void;
}

/** Every approval waiting for the signed-in person, oldest first, kept fresh. */
export function useInbox(api: InboxApi): Inbox {
  const [state, setState] = useState<Omit<Inbox, 'refresh' | 'byThread'>>({
    approvals: [],
    more: false,
    loaded: false,
  });
  const [key, setKey] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const load = async () => {
      try {
        const approvals: ApprovalView[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await api.pending(cursor, controller.signal);
          approvals.push(...page.approvals);
          cursor = page.nextCursor ?? undefined;
          pages += 1;
        } while (cursor !== undefined && pages < MAX_PAGES);
        setState({ approvals, more: cursor !== undefined, loaded: true });
      } catch (e) {
        if (!controller.signal.aborted)
          setState((s) => ({ ...s, loaded: true, error: failureText(e, 'load').text }));
      }
    };
    void load();
    const timer = window.setInterval(() => setKey((k) => k + 1), POLL_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, [api, key]);
  const refresh = useCallback(() => setKey((k) => k + 1), []);
  const byThread = useMemo(() => {
    const counts = new Map<string, number>();
    for (const a of state.approvals) counts.set(a.threadId, (counts.get(a.threadId) ?? 0) + 1);
    return counts;
  }, [state.approvals]);
  return { ...state, byThread, refresh };
}
