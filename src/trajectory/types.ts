/**
 * The trajectory format (schema_version 1): everything one run asked of its
 * model and tools, and everything it emitted, as plain JSON. Enough to
 * replay the run offline, to diff a new run against it, and to turn it into
 * an eval row. Published as `spec/trajectory.schema.json`.
 */
import type { CadreEvent, EventInput } from '../events/types.js';
import type { GenerationConfig, ModelChunk, ModelRequest, Usage } from '../model/types.js';
import type { ConfirmationDecision } from '../contracts/confirmation.js';
import type { RunResult, TerminateReason } from '../contracts/run-result.js';
import type { DefinitionSnapshot } from '../definition/definition-snapshot.js';

export const TRAJECTORY_SCHEMA_VERSION = 1;

export type JsonObject = Record<string, unknown>;

/** An error as recorded: enough to raise an equivalent one during replay. */
export interface RecordedError {
  /** `ModelError`, `ToolExecutionError`, `AbortError`, `Error`… */
  name: string;
  message: string;
  /** Cadre's error code when it was a CadreError. */
  code?: string;
  status?: number;
  retryable?: boolean;
}

/** A streamed model chunk with its arrival time, for timing simulation. */
export type RecordedChunk = ModelChunk & { offset_ms: number };

export interface RecordedRetry {
  attempt: number;
  delay_ms: number;
  reason: string;
}

/** One call to the model, in call order (retries of one call are inside it). */
export interface ModelStep {
  /** 0-based position among the run's model calls. */
  index: number;
  started_at: string;
  duration_ms: number;
  /** The request as the model saw it, JSON-normalised. */
  request: ModelRequest;
  /** `sha256:` of the canonical JSON of `request` (fresh ids in tool answers masked); replay matches on it. */
  request_hash: string;
  /** Every chunk the stream yielded, in order (retry notices included). */
  chunks: RecordedChunk[];
  usage?: Usage;
  /** Failed attempts the client retried before this response. */
  retries: RecordedRetry[];
  /** Set when the call failed in the end (after chunks, if any). */
  error?: RecordedError;
}

export type ToolOutcome =
  { status: 'ok'; output?: unknown } | { status: 'error'; error: RecordedError };

/** One real execution of a tool (calls refused before running are in the events only). */
export interface ToolStep {
  index: number;
  /** The model's call id, when it could be matched to a tool_call event. */
  call_id?: string;
  tool: string;
  args: JsonObject;
  args_hash: string;
  side_effect: boolean;
  execution_id: string;
  /** Agent names from the root: the same call in a subagent is a different step. */
  path: string[];
  started_at: string;
  duration_ms: number;
  outcome: ToolOutcome;
  /** Events the tool itself emitted while running; replay emits them again. */
  emitted?: EventInput[];
}

/** A tool the run could be granted, as the model saw it plus its side-effect flag. */
export interface ToolDescriptor {
  name: string;
  description: string;
  parameters: JsonObject;
  side_effect: boolean;
  default_approval?: 'auto' | 'require';
}

/** A person's (or handler's) decision on a side-effecting call. */
export interface ApprovalStep {
  call_id: string;
  tool: string;
  execution_id: string;
  decision: ConfirmationDecision;
}

export type { DefinitionSnapshot };

export interface TrajectoryModel {
  /** The model id the requests carried (the root's). */
  name: string;
  provider: string;
  config: GenerationConfig;
  /** Requested model string → the id it resolved to (subagents may ask for others). */
  resolved: Record<string, string>;
}

export interface TrajectoryMetadata {
  started_at: string;
  finished_at: string;
  duration_ms: number;
  total_tokens: number;
  usage: Usage;
  /** Model steps that reported no usage. */
  tokens_unavailable_count: number;
  terminate_reason: TerminateReason;
  model: string;
  final_result: RunResult;
  recorder: string;
}

export interface Trajectory {
  schema_version: typeof TRAJECTORY_SCHEMA_VERSION;
  id: string;
  run_id: string;
  agent: DefinitionSnapshot;
  inputs: JsonObject;
  model: TrajectoryModel;
  tools: ToolDescriptor[];
  model_steps: ModelStep[];
  tool_steps: ToolStep[];
  approvals: ApprovalStep[];
  /** Every event of the run, verbatim (types this version does not know included). */
  events: CadreEvent[];
  metadata: TrajectoryMetadata;
}
