/**
 * Cadre's library entry. Kept light on purpose: provider SDKs, YAML, Ajv
 * and the module loader are imported lazily, when first used.
 */
export * from './errors/index.js';
export type {
  AgentEventInput,
  AgentFinalInput,
  CadreEvent,
  CadreEventOf,
  CustomCadreEvent,
  CustomEventInput,
  EventDataMap,
  EventInput,
  EventInputOf,
  EventSink,
  ExecutionContext,
  KnownCadreEvent,
  KnownEventInput,
  WellKnownEventType,
} from './events/types.js';
export { isWellKnownType } from './events/known-events.js';
// Follows a run's agent tree from its events (what the tracking module's ExecutionState did).
export {
  buildExecutionTree,
  childNodes,
  EMPTY_TREE,
  nodeOf,
  reduceExecutionTree,
  rootNodes,
  type ExecutionNode,
  type ExecutionStatus,
  type ExecutionTree,
  type OpenCall,
} from './events/execution-tree.js';
export type * from './model/types.js';
export { addUsage, emptyUsage } from './model/types.js';
export {
  ScriptedModel,
  type Script,
  type ScriptedBranch,
  type ScriptCondition,
  type ScriptedTurn,
} from './model/scripted-model.js';
export { resolveModelClient } from './model/resolve-model.js';
export type * from './definition/types.js';
export { defineAgent } from './definition/define-agent.js';
export {
  loadDefinition,
  loadDefinitionsFromDir,
  validateDefinition,
} from './definition/lazy-load.js';
export type { LoadOptions, LoadResult, ValidateOptions } from './definition/load-definition.js';
export { SchemaRegistry } from './definition/schema-registry.js';
export { defineTool, type Tool, type ToolContext } from './tools/types.js';
export { ToolRegistry } from './tools/tool-registry.js';
export { builtinTools, builtinToolNames } from './tools/builtin/builtin-tools.js';
// Running an agent: one family of verbs over one options type.
export { run, start, resume, stream, type Runnable } from './agents/run-verbs.js';
export type {
  ModelResolver,
  PendingCall,
  RunOptions,
  RunOutcome,
} from './runtime/loop/executor.js';
export { createRuntime, type Runtime } from './runtime/loop/runtime.js';
// What `RunOptions.adapters` plugs in; the verbs above pass MCP's and A2A's.
export type { RunAdapters } from './runtime/loop/run-options.js';
export type { AgentKind, AgentKinds } from './contracts/agent-kind.js';
export type { SourcedTools, ToolSource, ToolSourceFactory } from './tools/tool-source.js';
export type {
  RunResult,
  SubagentCost,
  TerminateReason,
  RecoverableReason,
  ToolTrace,
} from './contracts/run-result.js';
export type { RunState } from './contracts/run-state.js';
export {
  approveTools,
  refuseSideEffects,
  type ConfirmationDecision,
  type ConfirmationHandler,
  type ConfirmationRequest,
} from './contracts/confirmation.js';

// What every tool call passes: interceptors and the gate's policy.
export type {
  BeforeVerdict,
  InterceptedCall,
  ToolCallOutcome,
  ToolInterceptor,
} from './policy/interceptors.js';
export type { GatePolicy } from './policy/tool-gate.js';
export type {
  ArgMatcher,
  Grant,
  PolicyDecision,
  PolicyMode,
  PolicyRule,
  Principal,
  TrustLevel,
} from './policy/types.js';

// Durable runs: the store the server uses (the database drivers are optional packages).
export type { Store } from './store/types.js';

// Composition: agents calling agents.
export type {
  Agent,
  AgentContext,
  AgentEntry,
  AgentInput,
  AgentLookup,
  SpawnRequest,
} from './contracts/agent.js';
export { AgentRegistry, type AgentOrigin, type RegisteredAgent } from './agents/agent-registry.js';
export { discoverAgents, type Discovery, type DiscoverOptions } from './agents/discover-agents.js';
export {
  ToolSets,
  parseToolSet,
  resolveToolSet,
  selectTools,
  type ToolSet,
  type ResolvedToolSet,
} from './runtime/subagents/tool-set.js';
export {
  SubagentConfigs,
  spawnFieldsFrom,
  type SubagentConfig,
} from './runtime/subagents/subagent-config.js';
export type { SpawnLimits } from './runtime/subagents/spawn-services.js';
export { RouterAgent } from './runtime/router/lazy-router-agent.js';
export type { RouterOptions } from './runtime/router/router-agent.js';

// The agent-format minimal interface.
export { runAgent, run_agent } from './compat/lazy-run-agent.js';
export type { AgentFormatResult, RunAgentOptions } from './compat/run-agent.js';
export type { AgentFormatConfig } from './compat/agent-format-config.js';

// Built-in code agents.
export {
  builtinAgentEntries,
  DeepResearchAgent,
  ReactAgent,
  DEEP_RESEARCH_DEFAULTS,
  type DeepResearchConfig,
  type DeepResearchOptions,
  type PhaseBudgets,
  type ReactConfig,
  type SubQueryOutcome,
} from './agents/builtin/index.js';

// Trajectories and evals have entries of their own, so a plain run loads
// neither: `cadre/trajectory`, `cadre/eval`.
