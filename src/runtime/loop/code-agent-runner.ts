import type { Agent, AgentInput } from '../../contracts/agent.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { LaunchChild } from '../subagents/spawn-services.js';
import { announceResult, closingServers } from './execution-frame.js';
import { prepareExecution, runtimeFor } from './prepare-execution.js';
import { ChildLaunchPaused } from '../subagents/child-pause.js';
import type { CodeAgentOptions } from './code-agent-options.js';
import { announceStart, consumeAgent } from './code-agent-events.js';
import { openCodeFrame } from './code-agent-frame.js';
import { finishedResult, pausedOutcome, type CodeOutcome } from './code-agent-outcome.js';

export type { CodeAgentOptions } from './code-agent-options.js';
export type { CodeOutcome } from './code-agent-outcome.js';

/** A code agent ready to run: what a router or workflow definition becomes. */
export interface CodeAgentRun {
  agent: Agent;
  input: AgentInput;
  options: CodeAgentOptions;
}

/**
 * Runs a code agent in the executor's frame: the same services, limits,
 * deadline, events (exactly one final_result) and RunResult shape as a
 * definition. The executor passes `launch`, how the tree starts children.
 */
export async function driveCodeAgent(
  agent: Agent,
  input: AgentInput,
  options: CodeAgentOptions,
  launch: LaunchChild,
): Promise<RunResult> {
  const outcome = await driveCodeOutcome(agent, input, options, launch);
  // Only a canPause run pauses; as a child, its parent's call pauses with it.
  if (outcome.status === 'paused') throw new ChildLaunchPaused(outcome.state, outcome.pending);
  return outcome.result;
}

export async function driveCodeOutcome(
  agent: Agent,
  given: AgentInput,
  options: CodeAgentOptions,
  launch: LaunchChild,
): Promise<CodeOutcome> {
  const startedAtMs = performance.now();
  const prepared = prepareExecution(options, agent.name, launch, await runtimeFor(options));
  return closingServers(prepared, async () => {
    const frame = openCodeFrame(agent, given, options, prepared);
    announceStart(prepared.emit, agent, options, frame);
    const ending = await consumeAgent(agent, frame);
    const { replay, callerSignal, deadline } = frame;
    if (replay?.stopped.aborted && !callerSignal.aborted && !deadline.signal.aborted)
      return pausedOutcome(agent, options, prepared, frame, replay, ending, startedAtMs);
    const result = finishedResult(agent, prepared, frame.children, ending, startedAtMs);
    announceResult(prepared.emit, result);
    return { status: 'finished', result };
  });
}
