import type { RunResult, TerminateReason } from '../contracts/run-result.js';
import type { Usage } from '../model/types.js';
import type { TodoItem } from '../contracts/todo-item.js';

/*
 * What each well-known event carries in `data`, as its emitters write it.
 * Type aliases, not interfaces: every shape must also fit the open
 * `Record<string, unknown>` of an event nobody here knows.
 */

/** A call waiting for a person, as a paused run lists it. */
export type AwaitedCallData = {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  preview: string;
  path?: string[];
};

/** An execution starts (declarative agents list their tools; code agents pass their input). */
export type RunStartedData = {
  agent: string;
  model: string;
  inputs?: Record<string, unknown>;
  input?: unknown;
  tools?: string[];
  /** Added by the server for runs of a thread. */
  threadId?: string;
  /** The model's provider, when the emitter knows it (traces name it). */
  provider?: string;
};

export type TurnStartedData = {
  turn?: number;
  grace?: boolean;
  /** A router's turn names its phase. */
  phase?: string;
  /** A react agent's turn names its iteration. */
  iteration?: number;
};

export type DeltaData = { text: string };

export type ToolCallData = { callId: string; tool: string; args: Record<string, unknown> };

export type ToolResultData = {
  callId: string;
  tool: string;
  ok: boolean;
  durationMs: number;
  error?: string;
};

export type ApprovalRequiredData = {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  preview: string;
  reason: string;
};

export type ApprovalResolvedData = {
  callId: string;
  tool: string;
  /**
   * `stale`: an approval given earlier no longer matches the call (`reason`); the person is asked
   * again. `unattended`: no one could be asked (no terminal, no --approve); the call was not run.
   */
  decision: 'approve' | 'approve_always' | 'reject' | 'stale' | 'unattended';
  reason?: string;
};

export type OutputEmittedData = { name: string; value?: unknown };

/** A child execution starts (or goes on after a pause) under its parent. */
export type SubagentStartedData = {
  agent: string;
  executionId: string;
  depth: number;
  ephemeral: boolean;
  /** The parent's tool call that started the child, when a tool call did (agent tool, task, a router's route). */
  callId?: string;
};

/** A child ended (or paused); its result's figures when it has one. */
export type SubagentFinishedData = {
  agent: string;
  executionId: string;
  terminate_reason?: TerminateReason;
  usage?: Usage;
  cost_usd?: number;
};

export type TodosUpdatedData = { todos: readonly TodoItem[]; summary: string };

/** One model call's tokens; `purpose` marks calls that are not a turn of the agent. */
export type UsageData = Omit<Usage, 'response'> & {
  response?: Usage['response'];
  purpose?: 'compaction' | 'tool';
};

export type WarningData = { context?: string; reason?: string; withheld?: string[] };

export type RecoveryStartedData = { from: string };

export type ModelRetryData = { attempt: number; delayMs: number; reason: string };

/** Every execution that starts ends with exactly one of these. */
export type FinalResultData = { result: RunResult };

export type ErrorData = { code?: string; context?: string; tool?: string; callId?: string };

export type RunPausedData = { pending: AwaitedCallData[] };

/** `recovered`: taken over from a stopped process, not resumed after a decision. */
export type RunResumedData = { decisions?: number; recovered?: boolean };

export type RunTakenOverData = {
  interrupted: { actionId: string; tool: string; callId: string }[];
};

export type ContextCompactedData = {
  scope: string;
  foldedMessages: number;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore?: number;
  tokensAfter?: number;
  contextWindow?: number;
  summaryUsage?: Usage;
  summary: string;
  /** A thread's summary: the seq of the last thread message it folded (stamped by the server). */
  throughSeq?: number;
};

export type GrantAppliedData = {
  callId: string;
  tool: string;
  grants: {
    id?: string;
    recipient: string;
    agent?: string;
    createdAt?: string;
    setBy?: string;
  }[];
};

export type ThreadStartedData = { threadId: number };

/*
 * The built-in code agents' own events (router, workflow, react, deep
 * research, remote A2A agents): progress for a display, typed like the rest.
 */

export type RoutingDecidedData = { targets: { domain: string; intent: string }[] };
export type DomainFinishedData = { domain: string; status: string };
export type SynthesisStartedData = { succeeded?: number; failed?: number };
export type WorkflowStepData = { agent?: string; round?: number };
export type LoopExitRequestedData = { reason?: string };
export type RemoteCallData = { agentCardUrl: string };
export type ReactStartedData = { query: string; tools: string[]; max_iterations: number };
export type ReactThoughtData = { iteration: number; thought: string };
export type ReactActionData = { iteration: number; tool: string; input: string };
export type ReactObservationData = { iteration: number; observation: string };
export type ReactCompleteData = { iteration: number; answer: string };
export type ReactMaxIterationsData = { iterations: number };
export type DecompositionStartedData = { query: string };
export type DecompositionCompleteData = { sub_queries: string[]; fallback?: string };
export type SubQueryStartedData = { id: number; query: string };
export type SubQueryCompletedData = {
  id: number;
  query: string;
  status: 'completed';
  answer: string;
  recovered_from?: string;
};
export type SubQueryFailedData = { id: number; query: string; error: string; timed_out: boolean };

/** Every well-known event type and the data it carries. */
export type EventDataMap = {
  run_started: RunStartedData;
  run_paused: RunPausedData;
  run_resumed: RunResumedData;
  run_taken_over: RunTakenOverData;
  turn_started: TurnStartedData;
  thought_delta: DeltaData;
  text_delta: DeltaData;
  tool_call: ToolCallData;
  tool_result: ToolResultData;
  approval_required: ApprovalRequiredData;
  approval_resolved: ApprovalResolvedData;
  grant_applied: GrantAppliedData;
  output_emitted: OutputEmittedData;
  subagent_started: SubagentStartedData;
  subagent_resumed: SubagentStartedData;
  subagent_finished: SubagentFinishedData;
  subagent_paused: SubagentFinishedData;
  thread_started: ThreadStartedData;
  /** A todo_write call replaced the execution's plan; `data.todos` is the whole list. */
  todos_updated: TodosUpdatedData;
  usage: UsageData;
  context_compacted: ContextCompactedData;
  warning: WarningData;
  recovery_started: RecoveryStartedData;
  model_retry: ModelRetryData;
  final_result: FinalResultData;
  error: ErrorData;
  routing_decided: RoutingDecidedData;
  domain_finished: DomainFinishedData;
  synthesis_started: SynthesisStartedData;
  workflow_step: WorkflowStepData;
  loop_exit_requested: LoopExitRequestedData;
  remote_call: RemoteCallData;
  react_started: ReactStartedData;
  react_thought: ReactThoughtData;
  react_action: ReactActionData;
  react_observation: ReactObservationData;
  react_complete: ReactCompleteData;
  react_max_iterations: ReactMaxIterationsData;
  decomposition_started: DecompositionStartedData;
  decomposition_complete: DecompositionCompleteData;
  sub_query_started: SubQueryStartedData;
  sub_query_completed: SubQueryCompletedData;
  sub_query_failed: SubQueryFailedData;
};
