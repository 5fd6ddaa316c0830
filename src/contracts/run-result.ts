import type { Usage } from '../model/types.js';

export type TerminateReason = 'GOAL' | 'ERROR' | 'TIMEOUT' | 'MAX_TURNS' | 'MAX_COST' | 'ABORTED';

/** Why a grace turn was needed; kept on a recovered run so the interruption is never hidden. */
export type RecoverableReason = 'MAX_TURNS' | 'MAX_COST' | 'TIMEOUT' | 'NO_COMPLETION';

/** One executed tool call, in the agent-format interface's shape (no other fields: its schema forbids them). */
export interface ToolTrace {
  tool: string;
  args: Record<string, unknown>;
  /** The output as text (JSON for structured output), or `Error: …` when the call failed. */
  output: string;
  duration_secs: number;
}

export interface RunResult {
  run_id: string;
  /** This execution's id in the agent tree (the run id for a root run). */
  execution_id: string;
  agent: string;
  terminate_reason: TerminateReason;
  recovered_from?: RecoverableReason;
  /** complete_task's validated output, the emitted values, or the final text of a chat agent. */
  output: unknown;
  /** processOutput(output), the JSON of the output, or the model's last text. */
  final_message: string;
  emitted_vars: Record<string, unknown>;
  /** The answer as text (the agent-format interface's `content`). */
  content: string;
  /** Wall clock from start to end, seconds. */
  response_time_secs: number;
  traces: ToolTrace[];
  usage: Usage;
  /**
   * What the run cost in US dollars, its subagents included, when the price
   * of at least one model it used is known (`usage.costUsd` is its own calls only).
   */
  cost_usd?: number;
  /** Each subagent's cost, in the order they finished. */
  subagent_costs?: SubagentCost[];
  turns: number;
  error?: { code: string; message: string };
}

export interface SubagentCost {
  agent: string;
  execution_id: string;
  cost_usd: number;
}
