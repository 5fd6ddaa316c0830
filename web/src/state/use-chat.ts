import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, isConflict } from '../api/api-error.js';
import type { Api, RunOptions } from '../api/api.js';
import type { StreamLine } from '../api/stream-line.js';
import type { ApprovalDecision, ApprovalView, ThreadView } from '../api/wire-types.js';
import { feedbackKey, writeDraft } from './drafts.js';
import { failureText } from './failure-text.js';
import { runInFlight } from './run-in-flight.js';
import { applyLine, emptyTrace, seedStep, type RunTrace } from './run-trace.js';
import { markDecided, mergeTraces } from './stored-trace.js';

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

export interface Chat {
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
  /** `onAccepted` runs once the server has stored the message: the draft may go then. */
  send(prompt: string, onAccepted: () => void, options?: RunOptions): void;
  decide(approval: ApprovalView, decision: ApprovalDecision, feedback: string): void;
  /** Loads the thread again and follows a run still going on. */
  reload(): void;
  dismissNotice(): void;
}

export const CONFLICT_TEXT = 'This approval was already decided in another tab or window.';

interface ChatOptions {
  api: Api;
  threadId?: string;
  agent?: string;
  /** A new thread was created by a run: show it at its own address. */
  onThreadCreated(threadId: string): void;
  onThreadsChanged(): void;
}

/** How a stream ended: `accepted` once any line came, which the server writes only after storing the request. */
interface Outcome {
  trace: RunTrace;
  accepted: boolean;
  /** The request or the stream broke (not a failure the run itself reported). */
  failure?: unknown;
  /** This page stopped listening (unmounted). */
  aborted?: boolean;
}

const isAbort = (error: unknown): boolean =>
  error instanceof DOMException && error.name === 'AbortError';

/** One thread's messages, pending approvals and live runs. */
export function useChat(options: ChatOptions): Chat {
  const { api, threadId, agent, onThreadCreated, onThreadsChanged } = options;
  const [thread, setThread] = useState<ThreadView>();
  const [missing, setMissing] = useState(false);
  const [streamed, setStreamed] = useState<Record<string, RunTrace>>({});
  const [live, setLive] = useState<LiveRun>();
  const [notice, setNotice] = useState<ChatNotice>();
  const [sending, setSending] = useState(false);
  const [deciding, setDeciding] = useState<string>();
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const [decisionError, setDecisionError] = useState<Chat['decisionError']>();
  const [reloadKey, setReloadKey] = useState(0);
  // The run this page is following already, so a reload of the thread does not attach twice.
  const attached = useRef<string | undefined>(undefined);
  // Bumped on every thread switch: a stream of the old thread stops drawing here.
  const generation = useRef(0);
  const shownThread = useRef<string | undefined>(undefined);
  const adoptedThread = useRef<string | undefined>(undefined);
  // Made in the effect (not at first render) so StrictMode's test unmount cannot leave it aborted.
  const streams = useRef<AbortController>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    streams.current = controller;
    return () => controller.abort();
  }, []);

  const reload = useCallback(() => setReloadKey((k) => k + 1), []);
  /** The stream broke after the server took the request: the run goes on there. */
  const detached = useCallback((failure: unknown) => {
    attached.current = undefined;
    setNotice({ kind: 'error', text: failureText(failure, 'follow').text, retry: 'reload' });
  }, []);

  const stream = useCallback(
    async (
      lines: AsyncGenerator<StreamLine>,
      start: LiveRun,
      /** Runs at the first line; may redraw the trace for what the server has now stored. */
      onAccepted?: (trace: RunTrace) => RunTrace,
    ): Promise<Outcome> => {
      const mine = generation.current;
      const show = (update: LiveRun) => {
        if (mine === generation.current) setLive(update);
      };
      let trace = start.trace;
      let accepted = false;
      let failure: unknown;
      show(start);
      try {
        for await (const line of lines) {
          if (!accepted) {
            accepted = true;
            if (onAccepted) trace = onAccepted(trace);
          }
          trace = applyLine(trace, line);
          show({ ...start, trace });
        }
      } catch (error) {
        if (isAbort(error)) return { trace, accepted, aborted: true };
        failure = error;
      }
      show({ ...start, trace, done: true });
      if (mine === generation.current && trace.error) {
        // The run itself failed, as the server reported it.
        const conflict = trace.error.code === 'conflict';
        setNotice({
          kind: conflict ? 'info' : 'error',
          text: conflict ? CONFLICT_TEXT : trace.error.message,
        });
      }
      return { trace, accepted, ...(failure === undefined ? {} : { failure }) };
    },
    [],
  );

  const keep = useCallback((runId: string | undefined, trace: RunTrace, before?: RunTrace) => {
    if (!runId) return;
    const thoughts = [before?.thoughts, trace.thoughts].filter(Boolean).join('\n');
    setStreamed((all) => ({ ...all, [runId]: { ...trace, thoughts } }));
  }, []);

  const follow = useCallback(
    async (runId: string) => {
      const mine = generation.current;
      const lines = api.followStream(runId, 0, streams.current?.signal);
      const outcome = await stream(lines, {
        trace: emptyTrace(runId),
        done: false,
        reattached: true,
      });
      if (outcome.aborted || mine !== generation.current) return;
      if (outcome.failure !== undefined) return detached(outcome.failure);
      keep(runId, outcome.trace);
      reload();
    },
    [api, stream, keep, reload, detached],
  );

  useEffect(() => {
    if (threadId !== shownThread.current) {
      shownThread.current = threadId;
      if (threadId === undefined || threadId !== adoptedThread.current) {
        generation.current += 1;
        setThread(undefined);
        setMissing(false);
        setStreamed({});
        setLive(undefined);
        setNotice(undefined);
        setDecided(new Set());
        setDecisionError(undefined);
      }
    }
    if (!threadId) return;
    const controller = new AbortController();
    const load = async () => {
      try {
        const view = await api.getThread(threadId, controller.signal);
        setThread(view);
        // A notice about loading is answered by the load that worked.
        setNotice((current) => (current?.retry === 'reload' ? undefined : current));
        // The streamed text is now a stored message: stop drawing the live copy.
        setLive((current) => (current?.done ? undefined : current));
        const running = runInFlight(view);
        if (running && attached.current !== running) {
          // Reloaded (or opened elsewhere) while a run goes on: follow it from its stored log.
          attached.current = running;
          void follow(running);
        }
      } catch (error) {
        if (isAbort(error)) return;
        // Another user's thread is answered exactly like a missing one.
        if (error instanceof ApiError && error.status === 404) return setMissing(true);
        const failure = failureText(error, 'load');
        setNotice({
          kind: 'error',
          text: failure.text,
          ...(failure.retry ? { retry: 'reload' as const } : {}),
        });
      }
    };
    void load();
    return () => controller.abort();
  }, [api, threadId, reloadKey, follow]);

  const send = useCallback(
    (prompt: string, onAccepted: () => void, options: RunOptions = {}) => {
      setNotice(undefined);
      setSending(true);
      const body = {
        prompt,
        ...(threadId ? { threadId } : {}),
        ...(agent ? { agent } : {}),
        ...options,
      };
      const run = async () => {
        const mine = generation.current;
        const lines = announced(api.runStream(body, streams.current?.signal), (ids) => {
          // This page follows the run itself: a reload of the thread must not attach again.
          attached.current = ids.runId;
          // Show the new thread at its address at once, so a reload mid-run finds it.
          if (!threadId && mine === generation.current) {
            adoptedThread.current = ids.threadId;
            onThreadCreated(ids.threadId);
          }
        });
        const outcome = await stream(lines, { prompt, trace: emptyTrace(), done: false }, (t) => {
          setSending(false);
          onAccepted();
          return t;
        });
        setSending(false);
        if (outcome.aborted) return;
        if (!outcome.accepted) {
          if (mine !== generation.current) return;
          // Not taken: the message lives on in the composer only, with a way to send it again.
          setLive(undefined);
          const failure = failureText(outcome.failure, 'send');
          setNotice({ kind: 'error', text: failure.text, retry: 'send' });
          return;
        }
        onThreadsChanged();
        // The person moved to another thread meanwhile: do not pull them back.
        if (mine !== generation.current) return;
        if (outcome.failure !== undefined) return detached(outcome.failure);
        const { trace } = outcome;
        const result = trace.result;
        keep(trace.runId, trace);
        if (result && !threadId && adoptedThread.current !== result.threadId) {
          adoptedThread.current = result.threadId;
          onThreadCreated(result.threadId);
        } else reload();
      };
      void run();
    },
    [api, threadId, agent, stream, keep, reload, detached, onThreadCreated, onThreadsChanged],
  );

  const traces = useMemo(() => mergeTraces(thread?.runs, streamed), [thread, streamed]);

  const decide = useCallback(
    (approval: ApprovalView, decision: ApprovalDecision, feedback: string) => {
      setNotice(undefined);
      setDecisionError(undefined);
      setDeciding(approval.approvalId);
      // This page follows the resumed run itself.
      attached.current = approval.runId;
      const before = traces[approval.runId];
      // Steps carry over so the waiting call turns into "done" in place; text starts afresh.
      const { result: _result, error: _error, ...kept } = before ?? emptyTrace(approval.runId);
      const base = { ...kept, text: '', thoughts: '' };
      const start = seedStep(base, approval.approvalId, approval.tool, approval.preview);
      const body = {
        approvalId: approval.approvalId,
        decision,
        ...(feedback.trim() ? { feedback: feedback.trim() } : {}),
      };
      const run = async () => {
        const mine = generation.current;
        const lines = api.resolveStream(body, streams.current?.signal);
        const live = { approvalId: approval.approvalId, trace: start, done: false };
        const outcome = await stream(lines, live, (trace) => {
          // Stored: the card closes now, and the thread shows who decided; the run streams on.
          writeDraft(window.localStorage, feedbackKey(approval.approvalId), '');
          setDeciding(undefined);
          setDecided((ids) => new Set(ids).add(approval.approvalId));
          reload();
          return markDecided(trace, approval, decision);
        });
        setDeciding((current) => (current === approval.approvalId ? undefined : current));
        if (outcome.aborted) return;
        onThreadsChanged();
        if (mine !== generation.current) return;
        if (!outcome.accepted) {
          setLive(undefined);
          attached.current = undefined;
          if (isConflict(outcome.failure)) {
            setNotice({ kind: 'info', text: CONFLICT_TEXT });
            reload();
          } else {
            const text = failureText(outcome.failure, 'decide').text;
            setDecisionError({ approvalId: approval.approvalId, text });
          }
          return;
        }
        if (outcome.failure !== undefined) return detached(outcome.failure);
        if (!outcome.trace.error) keep(approval.runId, outcome.trace, before);
        reload();
      };
      void run();
    },
    [api, traces, stream, keep, reload, detached, onThreadsChanged],
  );

  const pendingApprovals = (thread?.pendingApprovals ?? []).filter(
    (a) => !decided.has(a.approvalId),
  );
  return {
    ...(thread ? { thread } : {}),
    missing,
    traces,
    ...(live ? { live } : {}),
    ...(notice ? { notice } : {}),
    pendingApprovals,
    ...(deciding ? { deciding } : {}),
    ...(decisionError ? { decisionError } : {}),
    sending,
    busy: live !== undefined && !live.done,
    send,
    decide,
    reload: () => {
      setNotice(undefined);
      reload();
    },
    dismissNotice: () => setNotice(undefined),
  };
}

/** Passes the lines through, calling `onStatus` with the run's ids when its status line arrives. */
async function* announced(
  lines: AsyncGenerator<StreamLine>,
  onStatus: (ids: { runId: string; threadId: string }) => void,
): AsyncGenerator<StreamLine> {
  for await (const line of lines) {
    if (line.type === 'status' && line.runId && line.threadId)
      onStatus({ runId: line.runId, threadId: line.threadId });
    yield line;
  }
}
