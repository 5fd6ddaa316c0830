/**
 * One event shape everywhere (DESIGN §3): the in-process stream, NDJSON,
 * the store, trajectories and replay. Soft-typed: consumers ignore types they
 * do not know and recorders keep them verbatim.
 */

/** Where in the agent tree something happens. */
export interface ExecutionContext {
  executionId: string;
  parentId?: string;
  depth: number;
  /** Agent names from the root, e.g. ['router', 'weather']. */
  path: readonly string[];
}

export type WellKnownEventType =
  | 'run_started'
  | 'turn_started'
  | 'thought_delta'
  | 'text_delta'
  | 'tool_call'
  | 'tool_result'
  | 'approval_required'
  | 'approval_resolved'
  | 'output_emitted'
  | 'subagent_started'
  | 'subagent_finished'
  /** A todo_write call replaced the execution's plan; `data.todos` is the whole list. */
  | 'todos_updated'
  | 'usage'
  | 'warning'
  | 'recovery_started'
  | 'model_retry'
  | 'final_result'
  | 'error';

export interface CadreEvent {
  /** A well-known type or any other string; unknown types are kept, not dropped. */
  type: WellKnownEventType | (string & {});
  /** Human text, so a generic progress display works for any agent. */
  message: string;
  /** ISO 8601. */
  timestamp: string;
  data: Record<string, unknown>;
  runId: string;
  executionId: string;
  parentExecutionId?: string;
  depth: number;
  path: readonly string[];
  /** Monotonic per run, across all executions of the tree. */
  seq: number;
}

/** What an emitter is given; the run fills in ids, time and sequence. */
export interface EventInput {
  type: CadreEvent['type'];
  message: string;
  data?: Record<string, unknown>;
}

export type EventSink = (event: EventInput) => void;
