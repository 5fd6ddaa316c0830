import { ApiError } from '../api/api-error.js';
import type { ChatCore } from './chat-core.js';
import { threadReset } from './chat-session-state.js';
import { detached, keepTrace, streamRun } from './chat-stream.js';
import { failureText } from './failure-text.js';
import { runInFlight } from './run-in-flight.js';
import { emptyTrace } from './run-trace.js';

/** Follows a run going on from its stored log, then reads the thread again. */
async function follow(core: ChatCore, runId: string): Promise<void> {
  const mine = core.generation;
  const signal = core.streamSignal();
  const start = { trace: emptyTrace(runId), done: false, reattached: true };
  const outcome = await streamRun(core, core.api.followStream(runId, 0, signal), start, signal);
  if (outcome.aborted || mine !== core.generation) return;
  if (outcome.failure !== undefined) return detached(core, outcome.failure);
  keepTrace(core, runId, outcome.trace);
  await loadThread(core);
}

/** Reads the shown thread; a newer read (or a thread switch) aborts this one. */
export async function loadThread(core: ChatCore): Promise<void> {
  core.loading?.abort();
  core.loading = undefined;
  const id = core.threadId;
  if (!id || core.disposed) return;
  const controller = new AbortController();
  core.loading = controller;
  try {
    const view = await core.api.getThread(id, controller.signal);
    if (controller.signal.aborted) return;
    core.set({
      thread: view,
      // A notice about loading is answered by the load that worked.
      notice: core.state.notice?.retry === 'reload' ? undefined : core.state.notice,
      // The streamed text is now a stored message: stop drawing the live copy.
      live: core.state.live?.done ? undefined : core.state.live,
    });
    const running = runInFlight(view);
    if (running && core.attached !== running) {
      // Reloaded (or opened elsewhere) while a run goes on: follow it from its stored log.
      core.attached = running;
      void follow(core, running);
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    // Another user's thread is answered exactly like a missing one.
    if (error instanceof ApiError && error.status === 404) return core.set({ missing: true });
    const failure = failureText(error, 'load');
    core.set({
      notice: {
        kind: 'error',
        text: failure.text,
        ...(failure.retry ? { retry: 'reload' } : {}),
      },
    });
  } finally {
    if (core.loading === controller) core.loading = undefined;
  }
}

/** Shows this thread (`undefined`: a new one) and reads it. */
export function openThread(core: ChatCore, next: string | undefined): Promise<void> {
  if (next !== core.threadId) {
    core.threadId = next;
    if (next === undefined || next !== core.adoptedThread) {
      core.generation += 1;
      core.set(threadReset());
    }
  }
  return loadThread(core);
}
