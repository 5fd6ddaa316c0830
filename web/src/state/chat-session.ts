import { ApiError, isConflict } from '../api/api-error.js';
import type { Api, RunOptions } from '../api/api.js';
import type { StreamLine } from '../api/stream-line.js';
import type { ApprovalDecision, ApprovalView } from '../api/wire-types.js';
import { announced, readRun, type StreamOutcome } from './chat-run-stream.js';
import {
  initialChatState,
  snapshotter,
  threadReset,
  type ChatSnapshot,
  type ChatState,
  type LiveRun,
} from './chat-session-state.js';
import { feedbackKey, writeDraft } from './drafts.js';
import { failureText } from './failure-text.js';
import { runInFlight } from './run-in-flight.js';
import { emptyTrace, seedStep, type RunTrace } from './run-trace.js';
import { markDecided } from './stored-trace.js';

export type { ChatNotice, ChatSnapshot, LiveRun } from './chat-session-state.js';

export const CONFLICT_TEXT = 'This approval was already decided in another tab or window.';

export interface ChatSessionOptions {
  /** The routes, with the bearer token and the fetch they go through. */
  api: Api;
  /** Where an approval card's typed feedback waits; cleared once the decision is stored. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Aborting it disposes the session: every fetch and stream stops. */
  signal?: AbortSignal;
}

/** What the page around the chat decides: the agent to talk to and what a run changes there. */
export interface ChatContext {
  agent?: string;
  /** A new thread was created by a run: show it at its own address (then `open` it). */
  onThreadCreated?(threadId: string): void;
  onThreadsChanged?(): void;
}

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
  const { api, storage } = options;
  let context: ChatContext = {};
  let state: ChatState = initialChatState();
  let snapshot: ChatSnapshot | undefined;
  const snapshotOf = snapshotter();
  const listeners = new Set<() => void>();
  let disposed = false;
  /** The thread shown now. */
  let threadId: string | undefined;
  // The run this page is following already, so a reload of the thread does not attach twice.
  let attached: string | undefined;
  // Bumped on every thread switch: a stream of the old thread stops drawing here.
  let generation = 0;
  // A thread this session's own run created: opening it keeps what is on screen.
  let adoptedThread: string | undefined;
  let streams: AbortController | undefined;
  let loading: AbortController | undefined;

  const getSnapshot = (): ChatSnapshot => (snapshot ??= snapshotOf(state));
  const set = (patch: Partial<ChatState>): void => {
    if (disposed) return;
    state = { ...state, ...patch };
    snapshot = undefined;
    for (const listener of [...listeners]) listener();
  };
  /** Made on first use, so a stopped session opens new requests under a fresh signal. */
  const streamSignal = (): AbortSignal => (streams ??= new AbortController()).signal;

  /** The stream broke after the server took the request: the run goes on there. */
  const detached = (failure: unknown): void => {
    attached = undefined;
    set({ notice: { kind: 'error', text: failureText(failure, 'follow').text, retry: 'reload' } });
  };

  const stream = async (
    lines: AsyncGenerator<StreamLine>,
    start: LiveRun,
    signal: AbortSignal,
    onAccepted?: (trace: RunTrace) => RunTrace,
  ): Promise<StreamOutcome> => {
    const mine = generation;
    const outcome = await readRun(lines, start, {
      signal,
      show: (live) => {
        if (mine === generation) set({ live });
      },
      ...(onAccepted ? { onAccepted } : {}),
    });
    const error = outcome.trace.error;
    if (!outcome.aborted && mine === generation && error) {
      // The run itself failed, as the server reported it.
      const conflict = error.code === 'conflict';
      set({
        notice: {
          kind: conflict ? 'info' : 'error',
          text: conflict ? CONFLICT_TEXT : error.message,
        },
      });
    }
    return outcome;
  };

  const keep = (runId: string | undefined, trace: RunTrace, before?: RunTrace): void => {
    if (!runId) return;
    const thoughts = [before?.thoughts, trace.thoughts].filter(Boolean).join('\n');
    set({ streamed: { ...state.streamed, [runId]: { ...trace, thoughts } } });
  };

  const follow = async (runId: string): Promise<void> => {
    const mine = generation;
    const signal = streamSignal();
    const start = { trace: emptyTrace(runId), done: false, reattached: true };
    const outcome = await stream(api.followStream(runId, 0, signal), start, signal);
    if (outcome.aborted || mine !== generation) return;
    if (outcome.failure !== undefined) return detached(outcome.failure);
    keep(runId, outcome.trace);
    await load();
  };

  /** Reads the shown thread; a newer read (or a thread switch) aborts this one. */
  const load = async (): Promise<void> => {
    loading?.abort();
    loading = undefined;
    const id = threadId;
    if (!id || disposed) return;
    const controller = new AbortController();
    loading = controller;
    try {
      const view = await api.getThread(id, controller.signal);
      if (controller.signal.aborted) return;
      set({
        thread: view,
        // A notice about loading is answered by the load that worked.
        notice: state.notice?.retry === 'reload' ? undefined : state.notice,
        // The streamed text is now a stored message: stop drawing the live copy.
        live: state.live?.done ? undefined : state.live,
      });
      const running = runInFlight(view);
      if (running && attached !== running) {
        // Reloaded (or opened elsewhere) while a run goes on: follow it from its stored log.
        attached = running;
        void follow(running);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      // Another user's thread is answered exactly like a missing one.
      if (error instanceof ApiError && error.status === 404) return set({ missing: true });
      const failure = failureText(error, 'load');
      set({
        notice: {
          kind: 'error',
          text: failure.text,
          ...(failure.retry ? { retry: 'reload' } : {}),
        },
      });
    } finally {
      if (loading === controller) loading = undefined;
    }
  };

  const open = (next: string | undefined): Promise<void> => {
    if (next !== threadId) {
      threadId = next;
      if (next === undefined || next !== adoptedThread) {
        generation += 1;
        set(threadReset());
      }
    }
    return load();
  };

  const send = async (
    prompt: string,
    onAccepted: () => void = () => {},
    runOptions: RunOptions = {},
  ): Promise<void> => {
    if (disposed) return;
    // Where and to whom this message goes is fixed now, whatever is shown by the time it ends.
    const target = threadId;
    const { agent } = context;
    set({ notice: undefined, sending: true });
    const body = {
      prompt,
      ...(target ? { threadId: target } : {}),
      ...(agent ? { agent } : {}),
      ...runOptions,
    };
    const mine = generation;
    const signal = streamSignal();
    const lines = announced(api.runStream(body, signal), (ids) => {
      // This page follows the run itself: a reload of the thread must not attach again.
      attached = ids.runId;
      // Show the new thread at its address at once, so a reload mid-run finds it.
      if (!target && mine === generation) {
        adoptedThread = ids.threadId;
        context.onThreadCreated?.(ids.threadId);
      }
    });
    const start = { prompt, trace: emptyTrace(), done: false };
    const outcome = await stream(lines, start, signal, (trace) => {
      set({ sending: false });
      onAccepted();
      return trace;
    });
    set({ sending: false });
    if (outcome.aborted) return;
    if (!outcome.accepted) {
      if (mine !== generation) return;
      // Not taken: the message lives on in the composer only, with a way to send it again.
      const failure = failureText(outcome.failure, 'send');
      set({ live: undefined, notice: { kind: 'error', text: failure.text, retry: 'send' } });
      return;
    }
    context.onThreadsChanged?.();
    // The person moved to another thread meanwhile: do not pull them back.
    if (mine !== generation) return;
    if (outcome.failure !== undefined) return detached(outcome.failure);
    const { trace } = outcome;
    const result = trace.result;
    keep(trace.runId, trace);
    if (result && !target && adoptedThread !== result.threadId) {
      adoptedThread = result.threadId;
      context.onThreadCreated?.(result.threadId);
    } else await load();
  };

  const decide = async (
    approval: ApprovalView,
    decision: ApprovalDecision,
    feedback = '',
  ): Promise<void> => {
    if (disposed) return;
    set({ notice: undefined, decisionError: undefined, deciding: approval.approvalId });
    // This page follows the resumed run itself.
    attached = approval.runId;
    const before = getSnapshot().traces[approval.runId];
    // Steps carry over so the waiting call turns into "done" in place; text starts afresh.
    const { result: _result, error: _error, ...kept } = before ?? emptyTrace(approval.runId);
    const base = { ...kept, text: '', thoughts: '' };
    const trace = seedStep(base, approval.approvalId, approval.tool, approval.preview);
    const body = {
      approvalId: approval.approvalId,
      decision,
      ...(feedback.trim() ? { feedback: feedback.trim() } : {}),
    };
    const mine = generation;
    const signal = streamSignal();
    const start = { approvalId: approval.approvalId, trace, done: false };
    const outcome = await stream(api.resolveStream(body, signal), start, signal, (stored) => {
      // Stored: the card closes now, and the thread shows who decided; the run streams on.
      if (storage) writeDraft(storage, feedbackKey(approval.approvalId), '');
      set({ deciding: undefined, decided: new Set(state.decided).add(approval.approvalId) });
      void load();
      return markDecided(stored, approval, decision);
    });
    if (state.deciding === approval.approvalId) set({ deciding: undefined });
    if (outcome.aborted) return;
    context.onThreadsChanged?.();
    if (mine !== generation) return;
    if (!outcome.accepted) {
      attached = undefined;
      if (isConflict(outcome.failure)) {
        set({ live: undefined, notice: { kind: 'info', text: CONFLICT_TEXT } });
        await load();
      } else {
        const text = failureText(outcome.failure, 'decide').text;
        set({ live: undefined, decisionError: { approvalId: approval.approvalId, text } });
      }
      return;
    }
    if (outcome.failure !== undefined) return detached(outcome.failure);
    if (!outcome.trace.error) keep(approval.runId, outcome.trace, before);
    await load();
  };

  const cancel = async (): Promise<void> => {
    const runId = state.live && !state.live.done ? state.live.trace.runId : undefined;
    if (!runId || disposed) return;
    const signal = streamSignal();
    try {
      await api.cancelRun(runId, signal);
    } catch (error) {
      if (signal.aborted) return;
      set({ notice: { kind: 'error', text: failureText(error, 'cancel').text } });
    }
  };

  const stop = (): void => {
    // Nothing is followed any more: reading the thread again re-attaches to a run still going on.
    attached = undefined;
    streams?.abort();
    streams = undefined;
    loading?.abort();
    loading = undefined;
  };

  const dispose = (): void => {
    stop();
    disposed = true;
    listeners.clear();
  };

  if (options.signal?.aborted) dispose();
  else options.signal?.addEventListener('abort', dispose, { once: true });

  return {
    getSnapshot,
    subscribe(listener) {
      if (disposed) return () => {};
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    configure(next) {
      context = next;
    },
    open,
    send,
    decide,
    cancel,
    reload() {
      set({ notice: undefined });
      return load();
    },
    dismissNotice() {
      set({ notice: undefined });
    },
    stop,
    dispose,
  };
}
