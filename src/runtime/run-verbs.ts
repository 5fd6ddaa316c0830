import type { RunResult } from '../contracts/run-result.js';
import type { RunState } from '../contracts/run-state.js';
import type { CadreEvent } from '../events/types.js';
import type { ResumeDecision } from '../contracts/confirmation.js';
import { drive, NEW_RUN, resultOf, type RunOutcome, type Runnable } from './loop/executor.js';
import type { RunOptions } from './loop/run-options.js';
import { streamEvents } from './stream-events.js';

export type { Runnable };

/**
 * The public way to run an agent: one family of verbs over one options type.
 * `run` runs to the end, `start` may pause for a person, `resume` goes on
 * from a stored pause, and `stream` yields the events as they happen.
 */

/**
 * Runs an agent to the end. Bad inputs throw before any model call; once
 * started, every outcome (failures included) is a RunResult.
 */
export function run(agent: Runnable, options: RunOptions = {}): Promise<RunResult> {
  // Not an async function: a waiting run then holds one suspended frame less (~0.3 KB).
  return drive(agent, NEW_RUN, options).then(resultOf);
}

/**
 * Starts a run that may wait for a person: it finishes, or pauses when the
 * confirmation handler answers `pause`, with plain-data state to store for `resume`.
 */
export function start(agent: Runnable, options: RunOptions = {}): Promise<RunOutcome> {
  return drive(agent, NEW_RUN, options);
}

/** Goes on from a paused run's stored state, with a decision for every waiting call. */
export function resume(
  agent: Runnable,
  state: Readonly<RunState>,
  decisions: Readonly<Record<string, ResumeDecision>>,
  options: RunOptions = {},
): Promise<RunOutcome> {
  return drive(agent, { kind: 'resume', state, decisions }, options);
}

/** The run as an async iterable of events, ending with `final_result`; breaking out cancels it. */
export function stream(
  agent: Runnable,
  options: Omit<RunOptions, 'onEvent'> = {},
): AsyncGenerator<CadreEvent, void, undefined> {
  return streamEvents((listening) => run(agent, listening), options);
}
