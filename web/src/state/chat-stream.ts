import type { StreamLine } from '../api/stream-line.js';
import { CONFLICT_TEXT, type ChatCore } from './chat-core.js';
import { readRun, type StreamOutcome } from './chat-run-stream.js';
import type { LiveRun } from './chat-session-state.js';
import { failureText } from './failure-text.js';
import type { RunTrace } from './run-trace.js';

/** The stream broke after the server took the request: the run goes on there. */
export function detached(core: ChatCore, failure: unknown): void {
  core.attached = undefined;
  core.set({
    notice: { kind: 'error', text: failureText(failure, 'follow').text, retry: 'reload' },
  });
}

/** Reads one run's stream, drawing it while the thread it belongs to is still shown. */
export async function streamRun(
  core: ChatCore,
  lines: AsyncGenerator<StreamLine>,
  start: LiveRun,
  signal: AbortSignal,
  onAccepted?: (trace: RunTrace) => RunTrace,
): Promise<StreamOutcome> {
  const mine = core.generation;
  const outcome = await readRun(lines, start, {
    signal,
    show: (live) => {
      if (mine === core.generation) core.set({ live });
    },
    ...(onAccepted ? { onAccepted } : {}),
  });
  const error = outcome.trace.error;
  if (!outcome.aborted && mine === core.generation && error) {
    // The run itself failed, as the server reported it.
    const conflict = error.code === 'conflict';
    core.set({
      notice: {
        kind: conflict ? 'info' : 'error',
        text: conflict ? CONFLICT_TEXT : error.message,
      },
    });
  }
  return outcome;
}

/** Keeps a finished run's streamed trace, thoughts of the segment before it included. */
export function keepTrace(
  core: ChatCore,
  runId: string | undefined,
  trace: RunTrace,
  before?: RunTrace,
): void {
  if (!runId) return;
  const thoughts = [before?.thoughts, trace.thoughts].filter(Boolean).join('\n');
  core.set({ streamed: { ...core.state.streamed, [runId]: { ...trace, thoughts } } });
}
