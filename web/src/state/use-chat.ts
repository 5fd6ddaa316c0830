import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { Api, RunOptions } from '../api/api.js';
import type { ApprovalDecision, ApprovalView } from '../api/wire-types.js';
import { createChatSession, type ChatSnapshot } from './chat-session.js';

export { CONFLICT_TEXT, type ChatNotice, type LiveRun } from './chat-session.js';

export interface Chat extends ChatSnapshot {
  /** `onAccepted` runs once the server has stored the message: the draft may go then. */
  send(prompt: string, onAccepted: () => void, options?: RunOptions): void;
  decide(approval: ApprovalView, decision: ApprovalDecision, feedback: string): void;
  /** Loads the thread again and follows a run still going on. */
  reload(): void;
  dismissNotice(): void;
}

interface ChatOptions {
  api: Api;
  threadId?: string;
  agent?: string;
  /** A new thread was created by a run: show it at its own address. */
  onThreadCreated(threadId: string): void;
  onThreadsChanged(): void;
}

/** One thread's messages, pending approvals and live runs: a chat session, drawn by React. */
export function useChat(options: ChatOptions): Chat {
  const { api, threadId, agent, onThreadCreated, onThreadsChanged } = options;
  // Making one opens nothing, so StrictMode's second call costs nothing.
  const session = useMemo(() => createChatSession({ api, storage: window.localStorage }), [api]);
  // Leaving the page stops its requests; StrictMode's test unmount may start it again.
  useEffect(() => () => session.stop(), [session]);
  useEffect(
    () => session.configure({ ...(agent ? { agent } : {}), onThreadCreated, onThreadsChanged }),
    [session, agent, onThreadCreated, onThreadsChanged],
  );
  useEffect(() => void session.open(threadId), [session, threadId]);
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  return useMemo(
    () => ({
      ...snapshot,
      send: (prompt, onAccepted, runOptions) => void session.send(prompt, onAccepted, runOptions),
      decide: (approval, decision, feedback) => void session.decide(approval, decision, feedback),
      reload: () => void session.reload(),
      dismissNotice: session.dismissNotice,
    }),
    [snapshot, session],
  );
}
