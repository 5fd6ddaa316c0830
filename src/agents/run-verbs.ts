import type { RunState } from '../contracts/run-state.js';
import type { ResumeDecision } from '../contracts/confirmation.js';
import type { RunResult } from '../contracts/run-result.js';
import type { CadreEvent } from '../events/types.js';
import type { RunOutcome } from '../runtime/loop/executor.js';
import type { RunOptions } from '../runtime/loop/run-options.js';
import * as verbs from '../runtime/run-verbs.js';
import { withRunAdapters } from './run-adapters.js';

export type { Runnable } from '../runtime/run-verbs.js';

/**
 * The public run verbs (see runtime/run-verbs) with the MCP and A2A
 * adapters plugged in, so a definition's MCP servers and remote agents run.
 */
export function run(agent: verbs.Runnable, options: RunOptions = {}): Promise<RunResult> {
  return verbs.run(agent, withRunAdapters(options));
}

export function start(agent: verbs.Runnable, options: RunOptions = {}): Promise<RunOutcome> {
  return verbs.start(agent, withRunAdapters(options));
}

export function resume(
  agent: verbs.Runnable,
  state: Readonly<RunState>,
  decisions: Readonly<Record<string, ResumeDecision>>,
  options: RunOptions = {},
): Promise<RunOutcome> {
  return verbs.resume(agent, state, decisions, withRunAdapters(options));
}

export function stream(
  agent: verbs.Runnable,
  options: Omit<RunOptions, 'onEvent'> = {},
): AsyncGenerator<CadreEvent, void, undefined> {
  return verbs.stream(agent, withRunAdapters(options));
}
