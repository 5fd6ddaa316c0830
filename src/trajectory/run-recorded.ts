import { type RunOptions } from '../runtime/loop/executor.js';
import { run } from '../agents/run-verbs.js';
import type { RunResult } from '../contracts/run-result.js';
import type { AgentDefinition } from '../definition/types.js';
import { saveTrajectory } from './load-trajectory.js';
import { startRecording } from './recorder.js';
import type { Trajectory } from './types.js';

export interface RecordedRunOptions extends RunOptions {
  /** Where to write the trajectory (JSON); it is returned either way. */
  record?: { file?: string };
}

/**
 * `run` that also returns the run's trajectory. Errors raised
 * before the run starts (invalid inputs) are thrown as usual; once it has
 * started, failed and cancelled runs are recorded too.
 */
export async function runRecorded(
  definition: AgentDefinition,
  options: RecordedRunOptions = {},
): Promise<{ result: RunResult; trajectory: Trajectory }> {
  const { record, ...runOptions } = options;
  const recording = await startRecording(definition, runOptions);
  const result = await run(definition, recording.options);
  const trajectory = recording.finish(result);
  // No signal: a cancelled run is still worth saving.
  if (record?.file) await saveTrajectory(record.file, trajectory);
  return { result, trajectory };
}
