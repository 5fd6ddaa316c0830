import { useCallback, useEffect, useRef, useState } from 'react';
import { isConflict } from '../api/api-error.js';
import type { Api } from '../api/api.js';
import type { StreamLine } from '../api/stream-line.js';
import type { ApprovalDecision, ApprovalView, ThreadView } from '../api/wire-types.js';
import { runInFlight } from './run-in-flight.js';
import { applyLine, emptyTrace, seedStep, type RunTrace } from './run-trace.js';

export interface ChatNotice {
  kind: 'error' | 'info';
  text: string;
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
  traces: Record<string, RunTrace>;
  live?: LiveRun;
  notice?: ChatNotice;
  busy: boolean;
  send(prompt: string): void;
  decide(approval: ApprovalView, decision: ApprovalDecision, feedback: string): void;
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

const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : 'Something went wrong.';
const isAbort = (error: unknown): boolean =>
  error instanceof DOMException && error.name === 'AbortError';

/** One thread's messages, pending approvals and live runs. */
export function useChat(options: ChatOptions): Chat {
  const { api, threadId, agent, onThreadCreated, onThreadsChanged } = options;
  const [thread, setThread] = useState<ThreadView>();
  const [traces, setTraces] = useState<Record<string, RunTrace>>({});
  const [live, setLive] = useState<LiveRun>();
  const [notice, setNotice] = useState<ChatNotice>();
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

  useEffect(() => {
    if (threadId !== shownThread.current) {
      shownThread.current = threadId;
      if (threadId === undefined || threadId !== adoptedThread.current) {
        generation.current += 1;
        setThread(undefined);
        setTraces({});
        setLive(undefined);
        setNotice(undefined);
      }
    }
    if (!threadId) return;
    const controller = new AbortController();
    const load = async () => {
      try {
        const view = await api.getThread(threadId, controller.signal);
        setThread(view);
        // The streamed text is now a stored message: stop drawing the live copy.
        setLive((current) => (current?.done ? undefined : current));
        const running = runInFlight(view);
        if (running && attached.current !== running) {
          // Reloaded (or opened elsewhere) while a run goes on: follow it from its stored log.
          attached.current = running;
          void follow(running);
        }
      } catch (error) {
        if (!isAbort(error)) setNotice({ kind: 'error', text: errorText(error) });
      }
    };
    void load();
    return () => controller.abort();
  }, [api, threadId, reloadKey]);

  const stream = useCallback(
    async (lines: AsyncGenerator<StreamLine>, start: LiveRun): Promise<RunTrace> => {
      const mine = generation.current;
      const show = (update: LiveRun) => {
        if (mine === generation.current) setLive(update);
      };
      let trace = start.trace;
      show(start);
      try {
        for await (const line of lines) {
          trace = applyLine(trace, line);
          show({ ...start, trace });
        }
      } catch (error) {
        if (isAbort(error)) return trace;
        if (isConflict(error))
          trace = { ...trace, error: { code: 'conflict', message: CONFLICT_TEXT } };
        else trace = { ...trace, error: { code: 'error', message: errorText(error) } };
      }
      show({ ...start, trace, done: true });
      if (mine !== generation.current) return trace;
      if (trace.error) {
        const conflict = trace.error.code === 'conflict';
        setNotice({
          kind: conflict ? 'info' : 'error',
          text: conflict ? CONFLICT_TEXT : trace.error.message,
        });
      }
      return trace;
    },
    [],
  );

  const follow = useCallback(
    async (runId: string) => {
      const mine = generation.current;
      const lines = api.followStream(runId, 0, streams.current?.signal);
      const trace = await stream(lines, {
        trace: emptyTrace(runId),
        done: false,
        reattached: true,
      });
      if (mine !== generation.current) return;
      keep(runId, trace);
      setReloadKey((k) => k + 1);
    },
    [api, stream],
  );

  const keep = useCallback((runId: string | undefined, trace: RunTrace, before?: RunTrace) => {
    if (!runId) return;
    const thoughts = [before?.thoughts, trace.thoughts].filter(Boolean).join('\n');
    setTraces((all) => ({ ...all, [runId]: { ...trace, thoughts } }));
  }, []);

  const send = useCallback(
    (prompt: string) => {
      setNotice(undefined);
      const body = { prompt, ...(threadId ? { threadId } : {}), ...(agent ? { agent } : {}) };
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
        const trace = await stream(lines, { prompt, trace: emptyTrace(), done: false });
        const result = trace.result;
        onThreadsChanged();
        // The person moved to another thread meanwhile: do not pull them back.
        if (mine !== generation.current) return;
        keep(trace.runId, trace);
        if (result && !threadId && adoptedThread.current !== result.threadId) {
          adoptedThread.current = result.threadId;
          onThreadCreated(result.threadId);
        } else setReloadKey((k) => k + 1);
      };
      void run();
    },
    [api, threadId, agent, stream, keep, onThreadCreated, onThreadsChanged],
  );

  const decide = useCallback(
    (approval: ApprovalView, decision: ApprovalDecision, feedback: string) => {
      setNotice(undefined);
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
        const trace = await stream(lines, {
          approvalId: approval.approvalId,
          trace: start,
          done: false,
        });
        onThreadsChanged();
        if (mine !== generation.current) return;
        if (!trace.error) keep(approval.runId, trace, before);
        setReloadKey((k) => k + 1);
      };
      void run();
    },
    [api, traces, stream, keep, onThreadsChanged],
  );

  return {
    ...(thread ? { thread } : {}),
    traces,
    ...(live ? { live } : {}),
    ...(notice ? { notice } : {}),
    busy: live !== undefined && !live.done,
    send,
    decide,
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
