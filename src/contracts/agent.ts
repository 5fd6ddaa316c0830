import type { TraceCarrier } from './trace-carrier.js';
import type { AgentEventInput, EventSink, ExecutionContext } from '../events/types.js';
import type { Message, ModelClient } from '../model/types.js';
import type { RunResult } from './run-result.js';
import type { ToolSet } from './tool-set.js';
import type { AgentDefinition } from '../definition/types.js';

/** What a code agent is asked to do. */
export interface AgentInput {
  /** The user's message (or the task's query). */
  prompt: string;
  /** Structured inputs, when the caller has them. */
  inputs: Record<string, unknown>;
  /** Earlier turns of the conversation. */
  history?: Message[];
  /** Extra context (the agent-format interface's `memory`). */
  memory?: string;
}

/** Cross-agent resources only; an agent's own configuration lives in its constructor. */
export interface AgentContext {
  runId: string;
  execution: ExecutionContext;
  signal: AbortSignal;
  /** The model this execution should use, and its name. */
  model: ModelClient;
  modelName: string;
  /** Runs another agent as a child: its events join this run's stream. */
  spawn(request: SpawnRequest): Promise<RunResult>;
  /** Root folder the run's file tools are confined to. */
  workspace: string;
  /** Milliseconds left in this execution's time budget. */
  remainingMs(): number;
  emit: EventSink;
  /** The W3C trace context this execution's outgoing calls carry, when the run is traced (or continues a caller's trace). */
  traceCarrier?(): TraceCarrier | undefined;
}

/**
 * An agent written in code. It streams events (well-known ones typed, its own
 * as `custom`); its last event should be `final_result` with `data.content`
 * (and optionally `data.output`).
 * It runs through the same machinery as declarative agents and returns the
 * same RunResult.
 */
export interface Agent {
  readonly name: string;
  readonly description: string;
  execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput>;
}

/** A registry entry: a declarative definition, or a factory for a code agent (fresh instance per run). */
export type AgentEntry =
  | { kind: 'definition'; definition: AgentDefinition }
  | { kind: 'code'; name: string; description: string; create: () => Agent };

/** Agents callable by name. A registry implements it; tests can pass a plain object. */
export interface AgentLookup {
  get(name: string): AgentEntry | undefined;
  names(): string[];
}

/** What a tool asks for when it starts a subagent. */
export interface SpawnRequest {
  /** A registered agent, or an inline definition (ephemeral agent). */
  target: AgentEntry;
  /** Ephemeral targets take their tools from the parent; named ones bring their own grant. */
  ephemeral: boolean;
  inputs: Record<string, unknown>;
  /** An ephemeral agent's own tool choice, resolved against the parent's tools. */
  tools?: ToolSet;
  /** Tools chosen at call time (task `config.tools`): they only ever narrow what the child gets. */
  narrowTo?: ToolSet;
  /** false: the child may not start subagents of its own. */
  allowNested?: boolean;
  timeoutMs?: number;
  /** Stops this child alone (e.g. a router's per-domain timeout); the parent's cancellation always applies. */
  signal?: AbortSignal;
  /** Model for the child, replacing its own (agent-format `model_overrides`). */
  model?: string;
  /** `thread`: run the child in a worker thread (agent-format `execution_mode: threads`). */
  isolation?: 'thread';
  /** Earlier conversation turns the child should see. */
  history?: Message[];
  /** Extra context for the child's instructions (what earlier agents of a workflow answered). */
  memory?: string;
  /** A workflow's shared state, for the child's `{var}` placeholders. */
  state?: Readonly<Record<string, unknown>>;
  /** The caller's tool call that starts the child (agent tool, task, a router's route), named on `subagent_started`. */
  callId?: string;
}
