/**
 * Trajectories: record any run by decoration, replay it offline through the
 * real executor, diff where a new run diverges. Nothing here imports zod at
 * load time; validation and the JSON Schema load on first use.
 */
export type * from './types.js';
export { TRAJECTORY_SCHEMA_VERSION } from './types.js';
export { startRecording, type Recording } from './recorder.js';
export { runRecorded, type RecordedRunOptions } from './run-recorded.js';
export { RecordingModel } from './recording-model.js';
export { recordingTool } from './recording-tools.js';
export { StepLog } from './step-log.js';
export {
  loadTrajectory,
  parseTrajectory,
  saveTrajectory,
  SUPPORTED_TRAJECTORY_VERSIONS,
} from './load-trajectory.js';
export { replayTrajectory, type ReplayOptions, type ReplayOutcome } from './replay.js';
export { ReplayModel, type LiveModel, type ReplayModelOptions } from './replay-model.js';
export { replayTools, type ReplayToolsOptions } from './replay-tools.js';
export {
  describeDivergence,
  ReplayDivergenceError,
  ReplayLog,
  type Divergence,
  type ReplayReport,
} from './replay-log.js';
export { diffJson, formatDiff, type DiffEntry } from './json-diff.js';
export { comparableEvents } from './comparable-events.js';
export {
  definitionFromSnapshot,
  definitionHash,
  snapshotDefinition,
} from '../definition/definition-snapshot.js';
export { canonicalJson } from '../util/canonical-json.js';
export { sha256Of } from '../util/json-hash.js';
export { normaliseRequest, requestHash } from './request-hash.js';

/** The JSON Schema of the format (loads zod on first use). */
export async function trajectoryJsonSchema(): Promise<Record<string, unknown>> {
  return (await import('./trajectory-schema.js')).trajectoryJsonSchema();
}
