import type { AgentDefinition } from '../../definition/types.js';
import { drive, NEW_RUN, type RunOutcome } from '../../runtime/loop/executor.js';
import type { ExecutionOptions } from '../../runtime/loop/run-options.js';
import { startRecording, type RecordingResume } from '../../trajectory/recorder.js';
import { HISTORY_MESSAGES } from './server-context.js';
import type { Step } from './next-step.js';

type Recording = Awaited<ReturnType<typeof startRecording>>;

/**
 * Runs the step's loop until the run finishes or pauses for approval: a
 * resumed run applies the people's decisions first, a recovered one answers
 * its checkpointed turn; both then go on.
 */
export async function executeStep(
  definition: AgentDefinition,
  step: Step,
  options: ExecutionOptions,
  /** A recorded run that paused: its recording so far and its decisions, to go on with. */
  recorded?: RecordingResume,
): Promise<{ outcome: RunOutcome; recording?: Recording }> {
  switch (step.kind) {
    case 'new': {
      const started: ExecutionOptions = {
        ...options,
        inputs: step.inputs ?? { prompt: step.prompt },
        history: step.history,
        historyWindow: HISTORY_MESSAGES,
        ...(step.conversation ? { conversation: step.conversation } : {}),
      };
      // The recording keeps the inputs, so the trajectory replays (and forks) as it ran.
      const recording = step.record ? await startRecording(definition, started) : undefined;
      const outcome = await drive(definition, NEW_RUN, recording?.options ?? started);
      return recording ? { outcome, recording } : { outcome };
    }
    case 'resume':
    case 'recover': {
      // A run taken over after it resumed goes on with the recording its pause kept.
      const recording = recorded ? await startRecording(definition, options, recorded) : undefined;
      const outcome = await drive(definition, step, recording?.options ?? options);
      return recording ? { outcome, recording } : { outcome };
    }
    default:
      return step satisfies never;
  }
}
