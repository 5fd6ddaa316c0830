import type { FunctionCallPart, FunctionResponsePart, Message, Usage } from '../model/types.js';
import type { RecoverableReason, SubagentCost, TerminateReason, ToolTrace } from './run-result.js';

/**
 * Everything the loop knows about a run, as plain data: no closures, no
 * sockets. It can be serialised, persisted and resumed as it is.
 */
export interface RunState {
  version: 1;
  runId: string;
  agent: string;
  model: string;
  systemInstruction?: string;
  messages: Message[];
  /** Model turns taken, grace turn included. */
  turns: number;
  /** Milliseconds of running time used (waits for approval excluded). */
  activeMs: number;
  startedAt: string;
  emittedVars: Record<string, unknown>;
  /** Set when complete_task was accepted. */
  completed?: { output: unknown };
  traces: ToolTrace[];
  usage: Usage;
  /** What finished subagents cost; kept in the state so a paused run's total survives resume. */
  subagentCosts?: SubagentCost[];
  /** Tools a person approved for the rest of this run ("always"). */
  alwaysApproved: string[];
  /** The missing-outputs nudge is sent once. */
  nudged: boolean;
  recoveredFrom?: RecoverableReason;
  /** A turn parked for approvals: every call, with the responses known so far (null = awaiting a decision). */
  pendingTurn?: { calls: FunctionCallPart[]; responses: Array<FunctionResponsePart | null> };
  status: 'running' | 'paused' | 'finished';
  terminateReason?: TerminateReason;
  finalText?: string;
  error?: { code: string; message: string };
}
