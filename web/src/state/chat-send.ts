import type { RunOptions } from '../api/api.js';
import type { ChatCore } from './chat-core.js';
import { announced } from './chat-run-stream.js';
import { detached, keepTrace, streamRun } from './chat-stream.js';
import { loadThread } from './chat-thread-load.js';
import { failureText } from './failure-text.js';
import { emptyTrace } from './run-trace.js';

/** Sends a message and streams the run it starts; `onAccepted` once the server stored it. */
export async function sendMessage(
  core: ChatCore,
  prompt: string,
  onAccepted: () => void = () => {},
  runOptions: RunOptions = {},
): Promise<void> {
  if (core.disposed) return;
  // Where and to whom this message goes is fixed now, whatever is shown by the time it ends.
  const target = core.threadId;
  const { agent } = core.context;
  core.set({ notice: undefined, sending: true });
  const body = {
    prompt,
    ...(target ? { threadId: target } : {}),
    ...(agent ? { agent } : {}),
    ...runOptions,
  };
  const mine = core.generation;
  const signal = core.streamSignal();
  const lines = announced(core.api.runStream(body, signal), (ids) => {
    // This page follows the run itself: a reload of the thread must not attach again.
    core.attached = ids.runId;
    // Show the new thread at its address at once, so a reload mid-run finds it.
    if (!target && mine === core.generation) {
      core.adoptedThread = ids.threadId;
      core.context.onThreadCreated?.(ids.threadId);
    }
  });
  const start = { prompt, trace: emptyTrace(), done: false };
  const outcome = await streamRun(core, lines, start, signal, (trace) => {
    core.set({ sending: false });
    onAccepted();
    return trace;
  });
  core.set({ sending: false });
  if (outcome.aborted) return;
  if (!outcome.accepted) {
    if (mine !== core.generation) return;
    // Not taken: the message lives on in the composer only, with a way to send it again.
    const failure = failureText(outcome.failure, 'send');
    core.set({ live: undefined, notice: { kind: 'error', text: failure.text, retry: 'send' } });
    return;
  }
  core.context.onThreadsChanged?.();
  // The person moved to another thread meanwhile: do not pull them back.
  if (mine !== core.generation) return;
  if (outcome.failure !== undefined) return detached(core, outcome.failure);
  const { trace } = outcome;
  const result = trace.result;
  keepTrace(core, trace.runId, trace);
  if (result && !target && core.adoptedThread !== result.threadId) {
    core.adoptedThread = result.threadId;
    core.context.onThreadCreated?.(result.threadId);
  } else await loadThread(core);
}
