import type { ApprovalView, ThreadView } from '../api/wire-types.js';
import type { RunTrace } from './run-trace.js';
import { mergeTraces } from './stored-trace.js';

/** Shown next to the composer; `retry` names what its button does. */
export interface ChatNotice {
  kind: 'error' | 'info';
  text: string;
  /** `send`: the kept message goes again; `reload`: the thread is loaded (and followed) again. */
  retry?: 'send' | 'reload';
}

/** The run being streamed right now; `prompt` is shown at once, before the server echoes it. */
export interface LiveRun {
  prompt?: string;
  approvalId?: string;
  /** Picked up again after a reload: the run kept going while nobody watched. */
  reattached?: boolean;
  trace: RunTrace;
  done: boolean;
}

/** What the chat shows at one moment; a new object after every change, the same one until then. */
export interface ChatSnapshot {
  thread?: ThreadView;
  /** The server has no such thread for this user (missing, or someone else's). */
  missing: boolean;
  /** Each run's steps (stored, so they survive a reload) and the thoughts seen streaming. */
  traces: Record<string, RunTrace>;
  live?: LiveRun;
  notice?: ChatNotice;
  /** Approvals still waiting; one whose decision the server has stored is gone at once. */
  pendingApprovals: ApprovalView[];
  /** The approval whose decision is on its way, until the server has stored it. */
  deciding?: string;
  /** A decision that did not reach the server, shown on its card. */
  decisionError?: { approvalId: string; text: string };
  /** A message is on its way and the server has not taken it yet. */
  sending: boolean;
  busy: boolean;
}

/** What the session holds; the snapshot is derived from it. */
export interface ChatState {
  thread?: ThreadView;
  missing: boolean;
  /** Traces this page saw streaming, by run: they carry the thoughts the server does not store. */
  streamed: Record<string, RunTrace>;
  live?: LiveRun;
  notice?: ChatNotice;
  sending: boolean;
  deciding?: string;
  /** Approvals whose decision the server has stored, hidden before the thread is read again. */
  decided: ReadonlySet<string>;
  decisionError?: ChatSnapshot['decisionError'];
}

export const initialChatState = (): ChatState => ({
  missing: false,
  streamed: {},
  sending: false,
  decided: new Set(),
});

/** What a thread switch clears; a message or decision on its way keeps its flag. */
export const threadReset = (): Partial<ChatState> => ({
  thread: undefined,
  missing: false,
  streamed: {},
  live: undefined,
  notice: undefined,
  decided: new Set(),
  decisionError: undefined,
});

/** Builds snapshots, folding the stored traces again only when the thread or the streamed ones change. */
export function snapshotter(): (state: ChatState) => ChatSnapshot {
  let from: { thread: ThreadView | undefined; streamed: ChatState['streamed'] } | undefined;
  let traces: Record<string, RunTrace> = {};
  return (state) => {
    if (from?.thread !== state.thread || from?.streamed !== state.streamed) {
      from = { thread: state.thread, streamed: state.streamed };
      traces = mergeTraces(state.thread?.runs, state.streamed);
    }
    const { thread, live, notice, deciding, decisionError } = state;
    return {
      ...(thread ? { thread } : {}),
      missing: state.missing,
      traces,
      ...(live ? { live } : {}),
      ...(notice ? { notice } : {}),
      pendingApprovals: (thread?.pendingApprovals ?? []).filter(
        (a) => !state.decided.has(a.approvalId),
      ),
      ...(deciding ? { deciding } : {}),
      ...(decisionError ? { decisionError } : {}),
      sending: state.sending,
      busy: live !== undefined && !live.done,
    };
  };
}
