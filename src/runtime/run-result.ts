import type { Usage } from '../model/types.js';

export type TerminateReason = 'GOAL' | 'ERROR' | 'TIMEOUT' | 'MAX_TURNS' | 'ABORTED';

/** Why a grace turn was needed; kept on a recovered run so the interruption is never hidden. */
export type RecoverableReason = 'MAX_TURNS' | 'TIMEOUT' | 'NO_COMPLETION';

/** One executed tool call, in the agent-format seed's shape (no other fields: its schema forbids them). */
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
  /** The answer as text (the agent-format seed's `content`). */
  content: string;
  /** Wall clock from start to end, seconds. */
  response_time_secs: number;
  traces: ToolTrace[];
  usage: Usage;
  turns: number;
  error?: { code: string; message: string };
}
