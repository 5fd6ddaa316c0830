import type { Usage } from '../model/types.js';

/**
 * `GET /api/runs/:id/trajectory`: a recorded run, model step by model step,
 * compact enough for a page (the recording itself repeats the conversation
 * in every request).
 */
export interface TrajectoryView {
  /** The trajectory format's version, as the exported file has it. */
  schema_version: number;
  runId: string;
  agent: string;
  /** The message the run started from: what a fork edits. */
  prompt: string;
  inputs: Record<string, unknown>;
  model: string;
  startedAt: string;
  durationMs: number;
  terminateReason: string;
  finalMessage: string;
  steps: TrajectoryStepView[];
}

/** One call to the model: what it thought and said, the tools it called and what they returned. */
export interface TrajectoryStepView {
  /** 0-based, as `POST /api/runs/:id/fork` takes it. */
  index: number;
  /** The agent that asked, from the run's own agent down to a subagent. */
  path: string[];
  /** A step of the run's own agent: the run can go on from here with an edited prompt. */
  forkable: boolean;
  thought: string;
  text: string;
  calls: TrajectoryCallView[];
  durationMs: number;
  usage?: Usage;
  /** The model call failed (after its retries). */
  error?: string;
}

export interface TrajectoryCallView {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  result: TrajectoryCallResult;
}

/** Long outputs are cut (`truncated`); a call whose answer was not recorded is `unknown`. */
export type TrajectoryCallResult =
  | { status: 'ok'; output: string; truncated?: true }
  | { status: 'error'; error: string }
  | { status: 'unknown' };

export interface ForkRequest {
  userId: string;
  runId: string;
  /** The model step (0-based) to ask again: earlier steps are kept as recorded. */
  step: number;
  /** The run's prompt, edited. */
  prompt: string;
}
