import type { AgentDefinition } from '../../definition/types.js';
import type { LoopContext } from './loop-context.js';
import type { RunResult, TerminateReason } from '../../contracts/run-result.js';
import type { FinalStop } from './stop.js';
import { runCostUsd } from './run-cost.js';
import { costLimitOf } from './cost-ceiling.js';

/** Turns the final state into the result every caller gets (one shape for all protocols). */
export function finishRun(ctx: LoopContext, stop: FinalStop, startedAtMs: number): RunResult {
  const { state, definition } = ctx;
  let reason: TerminateReason = stop.reason === 'NO_COMPLETION' ? 'ERROR' : stop.reason;
  let error = stop.reason === 'ERROR' ? stop.error : undefined;
  let output: unknown = null;
  let finalMessage: string;
  if (reason === 'GOAL') {
    try {
      ({ output, finalMessage } = goalOutput(ctx, definition));
    } catch (cause) {
      reason = 'ERROR';
      error = {
        code: 'process_output_failed',
        message: `processOutput failed: ${messageOf(cause)}`,
      };
      finalMessage = error.message;
    }
  } else {
    finalMessage = failureMessage(ctx, stop);
  }
  if (!error && reason === 'ERROR') error = { code: 'no_completion', message: finalMessage };
  state.status = 'finished';
  state.terminateReason = reason;
  if (error) state.error = error;
  return {
    run_id: state.runId,
    execution_id: ctx.toolContext.execution.executionId,
    agent: state.agent,
    terminate_reason: reason,
    ...(state.recoveredFrom && reason === 'GOAL' ? { recovered_from: state.recoveredFrom } : {}),
    output,
    final_message: finalMessage,
    emitted_vars: { ...state.emittedVars },
    content: finalMessage,
    response_time_secs: (performance.now() - startedAtMs) / 1000,
    traces: state.traces,
    usage: state.usage,
    ...costOf(state),
    turns: state.turns,
    ...(error ? { error } : {}),
  };
}

/** The run's cost with its subagents', when any price was known. */
function costOf(state: LoopContext['state']): Pick<RunResult, 'cost_usd' | 'subagent_costs'> {
  const children = state.subagentCosts ?? [];
  if (state.usage.costUsd === undefined && children.length === 0) return {};
  return {
    cost_usd: runCostUsd(state),
    ...(children.length > 0 ? { subagent_costs: children } : {}),
  };
}

function goalOutput(
  ctx: LoopContext,
  definition: AgentDefinition,
): { output: unknown; finalMessage: string } {
  const { state, protocol } = ctx;
  switch (protocol.kind) {
    case 'complete_task': {
      const output = state.completed?.output;
      const finalMessage = definition.processOutput
        ? definition.processOutput(output)
        : typeof output === 'string'
          ? output
          : JSON.stringify(output, null, 2);
      return { output, finalMessage };
    }
    case 'emit_value': {
      const text = state.finalText?.trim();
      const listed = Object.entries(state.emittedVars)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join('\n');
      return {
        output: { ...state.emittedVars },
        finalMessage: text || `Emitted variables:\n${listed}`,
      };
    }
    case 'answer':
      return { output: state.finalText ?? '', finalMessage: state.finalText ?? '' };
    default:
      return protocol satisfies never;
  }
}

function failureMessage(ctx: LoopContext, stop: FinalStop): string {
  switch (stop.reason) {
    case 'MAX_TURNS':
      return `Agent reached the max turns limit (${ctx.maxTurns}).`;
    case 'MAX_COST':
      return `Agent reached the cost limit ($${costLimitOf(ctx)}).`;
    case 'TIMEOUT':
      return `Agent timed out after ${formatMinutes(ctx.definition.runConfig?.max_time_minutes)}.`;
    case 'NO_COMPLETION':
      return ctx.protocol.kind === 'complete_task'
        ? "Agent stopped calling tools but did not call 'complete_task'."
        : 'Agent stopped without emitting every required output.';
    case 'ABORTED':
      return 'Agent execution was cancelled.';
    case 'ERROR':
      return stop.error.message;
    case 'GOAL':
      return '';
    default:
      return stop satisfies never;
  }
}

function formatMinutes(minutes: number | undefined): string {
  return minutes === undefined ? 'its time budget' : `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
