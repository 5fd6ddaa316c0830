import type { AgentDefinition } from '../../definition/types.js';
import { drive, NEW_RUN, type RunOutcome } from '../../runtime/loop/executor.js';
import type { ExecutionOptions } from '../../runtime/loop/run-options.js';
import { startRecording } from '../../trajectory/recorder.js';
import { HISTORY_MESSAGES } from './server-context.js';
import type { Step } from './next-step.js';

type Recording = Awaited<ReturnType<typeof startRecording>>;

/** Runs the step's loop until the run finishes or pauses for approval. */
export async function executeStep(
  definition: AgentDefinition,
  step: Step,
  options: ExecutionOptions,
): Promise<{ outcome: RunOutcome; recording?: Recording }> {
  switch (step.kind) {
    case 'start': {
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
      return {
        outcome: await drive(
          definition,
          { kind: 'resume', state: step.state, decisions: step.job.decisions },
          options,
        ),
      };
    case 'recover':
      return { outcome: await drive(definition, { kind: 'recover', state: step.state }, options) };
    default:
      return step satisfies never;
  }
}
