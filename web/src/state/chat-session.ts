import type { RunOptions } from '../api/api.js';
import type { ApprovalDecision, ApprovalView } from '../api/wire-types.js';
import { cancelLiveRun } from './chat-cancel.js';
import { createChatCore, type ChatContext, type ChatSessionOptions } from './chat-core.js';
import { decideApproval } from './chat-decide.js';
import { sendMessage } from './chat-send.js';
import type { ChatSnapshot } from './chat-session-state.js';
import { loadThread, openThread } from './chat-thread-load.js';

export type { ChatNotice, ChatSnapshot, LiveRun } from './chat-session-state.js';
export { CONFLICT_TEXT, type ChatContext, type ChatSessionOptions } from './chat-core.js';

/**
 * One thread's messages, pending approvals and live runs, with no UI
 * framework: the page draws `getSnapshot()` and redraws on `subscribe`.
 * Each method's promise settles once what it started has settled (the
 * run streamed to its end, the thread read again).
 */
export interface ChatSession {
  getSnapshot(): ChatSnapshot;
  /** Calls `listener` after every change; returns the way to stop. */
  subscribe(listener: () => void): () => void;
  configure(context: ChatContext): void;
  /** Shows this thread (`undefined`: a new one), reads it, and follows a run still going on. */
  open(threadId: string | undefined): Promise<void>;
  /** `onAccepted` runs once the server has stored the message: the draft may go then. */
  send(prompt: string, onAccepted?: () => void, options?: RunOptions): Promise<void>;
  decide(approval: ApprovalView, decision: ApprovalDecision, feedback?: string): Promise<void>;
  /** Asks the server to stop the run being streamed; the stream then ends as the run settled. */
  cancel(): Promise<void>;
  /** Reads the thread again and follows a run still going on. */
  reload(): Promise<void>;
  dismissNotice(): void;
  /** Aborts every fetch and stream under way; the session may be used again afterwards. */
  stop(): void;
  /** Stops, and for good: later calls do nothing and listeners are dropped. */
  dispose(): void;
}

export function createChatSession(options: ChatSessionOptions): ChatSession {
  const core = createChatCore(options);
  const { listeners, set } = core;

  const stop = (): void => {
    // Nothing is followed any more: reading the thread again re-attaches to a run still going on.
    core.attached = undefined;
    core.streams?.abort();
    core.streams = undefined;
    core.loading?.abort();
    core.loading = undefined;
  };

  const dispose = (): void => {
    stop();
    core.disposed = true;
    listeners.clear();
  };

  if (options.signal?.aborted) dispose();
  else options.signal?.addEventListener('abort', dispose, { once: true });

  return {
    getSnapshot: core.getSnapshot,
    subscribe(listener) {
      if (core.disposed) return () => {};
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    configure(next: ChatContext) {
      core.context = next;
    },
    open: (next) => openThread(core, next),
    send: (prompt: string, onAccepted?: () => void, runOptions?: RunOptions) =>
      sendMessage(core, prompt, onAccepted, runOptions),
    decide: (approval: ApprovalView, decision: ApprovalDecision, feedback?: string) =>
      decideApproval(core, approval, decision, feedback),
    cancel: () => cancelLiveRun(core),
    reload() {
      set({ notice: undefined });
      return loadThread(core);
    },
    dismissNotice() {
      set({ notice: undefined });
    },
    stop,
    dispose,
  };
}
