import { isoTime } from '../../util/iso-time.js';
import type { Agent } from '../../contracts/agent.js';
import type { RunResult, SubagentCost, ToolTrace } from '../../contracts/run-result.js';
import type { AwaitedCall, RunState } from '../../contracts/run-state.js';
import type { CodeReplay } from '../subagents/code-replay.js';
import type { CodeAgentOptions } from './code-agent-options.js';
import type { CodeEnding } from './code-agent-events.js';
import type { CodeFrame } from './code-agent-frame.js';
import type { PreparedExecution } from './prepare-execution.js';
import { runCostUsd } from './run-cost.js';

/** A code agent run ends with a result, or paused with a child waiting for a person. */
export type CodeOutcome =
  | { status: 'finished'; result: RunResult }
  | { status: 'paused'; state: RunState; pending: AwaitedCall[] };

/** The run stopped because every child left is waiting for a person: store it to resume. */
export function pausedOutcome(
  agent: Agent,
  options: CodeAgentOptions,
  prepared: PreparedExecution,
  frame: CodeFrame,
  replay: CodeReplay,
  ending: CodeEnding,
  startedAtMs: number,
): CodeOutcome {
  const pending = replay.pending();
  const state: RunState = {
    version: 1,
    runId: prepared.runId,
    agent: agent.name,
    model: frame.model,
    messages: [],
    turns: ending.turns,
    // Time spent waiting for the person is not counted.
    activeMs: frame.usedMs + (performance.now() - startedAtMs),
    startedAt: options.resume?.state.startedAt ?? isoTime(prepared.services.clock.now()),
    emittedVars: {},
    traces: [],
    usage: ending.usage,
    costSpentUsd: frame.budget.spentUsd(),
    alwaysApproved: [],
    nudged: false,
    code: replay.memo,
    status: 'paused',
  };
  prepared.emit({
    type: 'run_paused',
    message: `Waiting for approval of ${pending.map((p) => p.preview).join('; ')}`,
    data: { pending },
  });
  return { status: 'paused', state, pending };
}

/** The run's result, in the same shape a declarative agent's has. */
export function finishedResult(
  agent: Agent,
  prepared: PreparedExecution,
  children: SubagentCost[],
  ending: CodeEnding,
  startedAtMs: number,
): RunResult {
  const { final, reason, error, limitMessage, usage, turns } = ending;
  const content =
    typeof final?.content === 'string'
      ? final.content
      : (error?.message ?? limitMessage ?? `${agent.name}: ${reason}`);
  return {
    run_id: prepared.runId,
    execution_id: prepared.execution.executionId,
    agent: agent.name,
    terminate_reason: reason,
    output: final ? (final.output ?? content) : null,
    final_message: content,
    emitted_vars: {},
    content,
    response_time_secs: (performance.now() - startedAtMs) / 1000,
    traces: Array.isArray(final?.traces) ? (final.traces as ToolTrace[]) : [],
    usage,
    ...(usage.costUsd !== undefined || children.length > 0
      ? {
          cost_usd: runCostUsd({ usage, subagentCosts: children }),
          ...(children.length > 0 ? { subagent_costs: children } : {}),
        }
      : {}),
    turns,
    ...(error ? { error } : {}),
  };
}
