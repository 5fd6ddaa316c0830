/**
 * Cadre's library entry. Kept light on purpose: provider SDKs, YAML, Ajv
 * and the module loader are imported lazily, when first used.
 */
export * from './errors/index.js';
export type {
  CadreEvent,
  EventInput,
  EventSink,
  ExecutionContext,
  WellKnownEventType,
} from './events/types.js';
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
export type * from './spec/types.js';
export { defineAgent } from './spec/define-agent.js';
export { loadDefinition, loadDefinitionsFromDir, validateDefinition } from './spec/lazy-load.js';
export type { LoadOptions, LoadResult, ValidateOptions } from './spec/load-definition.js';
export { SchemaRegistry } from './spec/schema-registry.js';
export { defineTool, type Tool, type ToolContext } from './tools/types.js';
export { ToolRegistry } from './tools/tool-registry.js';
export { builtinTools, builtinToolNames } from './tools/builtin/index.js';
export {
  executeAgent,
  startRun,
  resumeRun,
  type ModelResolver,
  type PendingCall,
  type RunOptions,
  type RunOutcome,
} from './runtime/executor.js';
export { streamAgent } from './runtime/stream-agent.js';
export { createRuntime, type Runtime } from './runtime/runtime.js';
export type {
  RunResult,
  TerminateReason,
  RecoverableReason,
  ToolTrace,
} from './runtime/run-result.js';
export type { RunState } from './runtime/run-state.js';
export {
  approveTools,
  refuseSideEffects,
  type ConfirmationDecision,
  type ConfirmationHandler,
  type ConfirmationRequest,
} from './runtime/confirmation.js';

// Composition: agents calling agents.
export type { Agent, AgentContext, AgentEntry, AgentInput, AgentLookup } from './agents/types.js';
export { AgentRegistry, type AgentOrigin, type RegisteredAgent } from './agents/agent-registry.js';
export { discoverAgents, type Discovery, type DiscoverOptions } from './agents/discover-agents.js';
export { childExecution, pathString, rootExecution } from './events/execution-context.js';
export { runCodeAgent } from './runtime/code-agent-runner.js';
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
export type { SpawnRequest } from './runtime/subagents/types.js';
export type { SpawnLimits } from './runtime/subagents/spawn-services.js';
export { RouterAgent, type RouterOptions } from './runtime/router/router-agent.js';
export { remainingTime, withTimeoutAndCancellation } from './runtime/time-budget.js';
export { Semaphore } from './runtime/semaphore.js';
export { cachedResolver } from './model/cached-resolver.js';

// The agent-format minimal interface.
export {
  runAgent,
  run_agent,
  type AgentFormatResult,
  type RunAgentOptions,
} from './compat/run-agent.js';
export type { AgentFormatConfig } from './compat/agent-format-config.js';

// Built-in code agents and tracking.
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
export {
  DefaultTracker,
  ExecutionState,
  RunMetrics,
  PHASES,
  DEFAULT_PHASE_TABLES,
  DEEP_RESEARCH_PHASES,
  REACT_PHASES,
  LOOP_PHASES,
  nextPhase,
  type ExecutionTracker,
  type ExecutionRecord,
  type ExecutionStatus,
  type ExecutionStateOptions,
  type Phase,
  type PhaseTable,
  type WellKnownPhase,
} from './tracking/index.js';

// Trajectories and evals (zod, yaml and Ajv load on first use).
export {
  runRecorded,
  startRecording,
  replayTrajectory,
  loadTrajectory,
  saveTrajectory,
  parseTrajectory,
  ReplayModel,
  RecordingModel,
  comparableEvents,
  trajectoryJsonSchema,
  definitionHash,
  describeDivergence,
  ReplayDivergenceError,
  TRAJECTORY_SCHEMA_VERSION,
  SUPPORTED_TRAJECTORY_VERSIONS,
  type Trajectory,
  type ModelStep,
  type ToolStep,
  type Recording,
  type RecordedRunOptions,
  type ReplayOptions,
  type ReplayOutcome,
  type ReplayReport,
  type Divergence,
} from './trajectory/index.js';
export {
  runEval,
  loadDataset,
  formatSummary,
  belowMinimum,
  exactScorer,
  containsScorer,
  regexScorer,
  jsonSchemaScorer,
  toolCalledScorer,
  llmJudgeScorer,
  loadJudgeDefinition,
  type EvalRow,
  type EvalOptions,
  type EvalReport,
  type RowResult,
  type Scorer,
  type ScoreResult,
  type ScoreContext,
} from './eval/index.js';
