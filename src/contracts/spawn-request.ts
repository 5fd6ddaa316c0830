import type { AgentEntry } from './agent.js';
import type { Message } from '../model/types.js';
import type { ToolSet } from '../runtime/subagents/tool-set.js';

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
}
