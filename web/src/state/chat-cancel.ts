import type { ChatCore } from './chat-core.js';
import { failureText } from './failure-text.js';

/** Asks the server to stop the run being streamed; the stream then ends as the run settled. */
export async function cancelLiveRun(core: ChatCore): Promise<void> {
  const { live } = core.state;
  const runId = live && !live.done ? live.trace.runId : undefined;
  if (!runId || core.disposed) return;
  const signal = core.streamSignal();
  try {
    await core.api.cancelRun(runId, signal);
  } catch (error) {
    if (signal.aborted) return;
    core.set({ notice: { kind: 'error', text: failureText(error, 'cancel').text } });
  }
}
