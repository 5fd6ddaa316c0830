import type { StreamLine } from '../api/stream-line.js';
import type { LiveRun } from './chat-session-state.js';
import { applyLine, type RunTrace } from './run-trace.js';

/** How a stream ended: `accepted` once any line came, which the server writes only after storing the request. */
export interface StreamOutcome {
  trace: RunTrace;
  accepted: boolean;
  /** The request or the stream broke (not a failure the run itself reported). */
  failure?: unknown;
  /** This page stopped listening (the session was stopped). */
  aborted?: boolean;
}

export interface ReadRunOptions {
  /** The signal the request was made with: once aborted, the outcome is `aborted`. */
  signal: AbortSignal;
  /** Draws the run as it goes; called with `start` first and `done: true` last. */
  show(live: LiveRun): void;
  /** Runs at the first line; may redraw the trace for what the server has now stored. */
  onAccepted?(trace: RunTrace): RunTrace;
}

const isAbort = (error: unknown): boolean =>
  error instanceof DOMException && error.name === 'AbortError';

/** Folds a run's stream lines into its trace, drawing each step. */
export async function readRun(
  lines: AsyncGenerator<StreamLine>,
  start: LiveRun,
  options: ReadRunOptions,
): Promise<StreamOutcome> {
  const { signal, show, onAccepted } = options;
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
    if (signal.aborted || isAbort(error)) return { trace, accepted, aborted: true };
    failure = error;
  }
  if (signal.aborted) return { trace, accepted, aborted: true };
  show({ ...start, trace, done: true });
  return { trace, accepted, ...(failure === undefined ? {} : { failure }) };
}

/** Passes the lines through, calling `onStatus` with the run's ids when its status line arrives. */
export async function* announced(
  lines: AsyncGenerator<StreamLine>,
  onStatus: (ids: { runId: string; threadId: string }) => void,
): AsyncGenerator<StreamLine> {
  for await (const line of lines) {
    if (line.type === 'status' && line.runId && line.threadId)
      onStatus({ runId: line.runId, threadId: line.threadId });
    yield line;
  }
}
