import type { GenerationConfig, ModelClient } from '../../model/types.js';
import {
  DEFAULT_MAX_TIME_MINUTES,
  DEFAULT_MAX_TURNS,
  type AgentDefinition,
} from '../../definition/types.js';
import type { Completion } from './made-once.js';
import { ToolExecutionError } from '../../errors/cadre-error.js';
import type { RunState } from '../../contracts/run-state.js';
import type { OfferedTools } from './offered-tools.js';
import { grantedTools } from '../subagents/granted-tools.js';
import { spawnChild } from '../subagents/spawn-child.js';
import type { SpawnRequest } from '../../contracts/agent.js';
import { compactionSettings } from '../compaction/compaction-settings.js';
import { costLimitOf, costSpent, executionBudget } from './cost-ceiling.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import { toolModelCall } from './tool-model-call.js';
import { spawnParentOf } from './execution-frame.js';
import { Deadline } from './deadline.js';
import type { LoopContext } from './loop-context.js';
import { toolSetFor } from './shared-tool-set.js';
import type { PreparedExecution } from './prepare-execution.js';
import type { ExecutionOptions } from './run-options.js';

/** What one execution's loop is built from. */
export interface LoopParts {
  definition: AgentDefinition;
  state: RunState;
  completion: Completion;
  client: ModelClient;
  prepared: PreparedExecution;
  options: ExecutionOptions;
  offered: OfferedTools;
}

/** Everything the turns of one execution share: its tools, budget, signals and hooks. */
export function buildLoopContext({
  definition,
  state,
  completion,
  client,
  prepared,
  options,
  offered,
}: LoopParts): LoopContext {
  const { protocol } = completion;
  const { runId, execution, emit, services } = prepared;
  const allowNested = options.allowNested ?? true;
  const ready =
    offered.mcp.tools.length === 0 ? offered.own : [...offered.own, ...offered.mcp.tools];
  const { tools, withheld } = grantedTools(offered.local, services, allowNested, ready);
  for (const warning of offered.mcp.warnings) emit({ type: 'warning', message: warning, data: {} });
  if (withheld.length > 0) {
    emit({
      type: 'warning',
      message: `Nested subagents are not allowed here; withheld: ${withheld.join(', ')}`,
      data: { withheld },
    });
  }
  const {
    registry,
    declarations,
    offered: offeredNames,
    fixedTokens,
  } = toolSetFor(
    definition,
    tools,
    completion.declarations,
    services.runtime.declarations,
    // MCP tools belong to the run tree's connections: a set holding them is not kept past it.
    offered.mcp.tools.length === 0 ? services.runtime.toolSets : undefined,
  );
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  // A resumed run has only what it had not used before it paused.
  const deadline = Deadline.forExecution(
    ownBudgetMs,
    options.timeBudgetMs,
    state.activeMs,
    services.clock,
  );
  // The caller signal children get: per run, never shared (listeners added to it must not pile
  // up across runs), and made on the first spawn when the caller gave none.
  let ownSignal: AbortSignal | undefined;
  const callerSignalOf = () => options.signal ?? (ownSignal ??= new AbortController().signal);
  const maxCostUsd = definition.runConfig?.max_cost_usd;
  // Under the parent's budget: a child's calls count against every cap above it.
  const budget = executionBudget(maxCostUsd, options.budget, state);
  // Built on the first spawn: most runs start no subagent, and a waiting run should not hold it.
  let spawns: ReturnType<typeof nestedSpawns> | undefined;
  const nested = () =>
    (spawns ??= nestedSpawns({
      prepared,
      deadline,
      definition,
      grantedNames: registry.names(),
      state,
      callerSignal: callerSignalOf(),
      budget,
      maxCostUsd,
    }));
  let generate: ReturnType<typeof toolModelCall> | undefined;
  const spawning: ReturnType<typeof nestedSpawns> | undefined = allowNested
    ? {
        spawn: (request, signal) => nested().spawn(request, signal),
        resumeSpawn: (request, resume) => nested().resumeSpawn(request, resume),
      }
    : undefined;
  return {
    definition,
    state,
    protocol,
    registry,
    declarations,
    offered: offeredNames,
    fixedTokens,
    client,
    generation: generationConfig(definition),
    validator: services.runtime.validator,
    confirm: services.confirm,
    emit,
    deadline,
    ...(options.signal ? { callerSignal: options.signal } : {}),
    cancellable: options.signal !== undefined,
    toolContext: {
      runId,
      execution,
      workspace: services.workspace,
      ...(services.protectedPaths ? { protectedPaths: services.protectedPaths } : {}),
      emit,
      ...(services.traceCarrier
        ? { traceCarrier: () => services.traceCarrier?.(execution.executionId) }
        : {}),
      // What an MCP server asks mid-call: this agent's model (priced as the run's), its person.
      // Made on the first such question: few runs have a tool that asks one.
      generate: (request, signal) =>
        (generate ??= toolModelCall(client, state, emit, services.prices, budget))(request, signal),
      confirm: services.confirm,
      ...(spawning ? { spawn: spawning.spawn } : {}),
    },
    ...(spawning ? { resumeSpawn: spawning.resumeSpawn } : {}),
    maxTurns: definition.runConfig?.max_turns ?? DEFAULT_MAX_TURNS,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    budget,
    prices: services.prices,
    journal: services.journal,
    ...(services.interceptors ? { interceptors: services.interceptors } : {}),
    ...(services.policy ? { policy: services.policy } : {}),
    // A child has no options of its own for this: it reads its root's table through the services.
    compaction: compactionSettings(definition.runConfig?.compaction, state.model, {
      contextWindows: services.contextWindows ?? options.contextWindows,
      historyWindow: options.historyWindow,
    }),
  };
}

/**
 * How this execution starts (and resumes) subagents. A child stops on
 * cancellation, not on the parent's deadline: its own budget is the parent's
 * remaining time, so it can still use its grace turn to report.
 */
function nestedSpawns({
  prepared,
  deadline,
  definition,
  grantedNames,
  state,
  callerSignal,
  budget,
  maxCostUsd,
}: {
  prepared: PreparedExecution;
  deadline: LoopContext['deadline'];
  definition: AgentDefinition;
  grantedNames: string[];
  state: RunState;
  callerSignal: AbortSignal;
  budget: CostBudget;
  maxCostUsd: number | undefined;
}): Pick<Required<LoopContext>, 'resumeSpawn'> & {
  spawn: NonNullable<LoopContext['toolContext']['spawn']>;
} {
  const { services } = prepared;
  const tools = {
    grantedNames,
    ...(definition.toolConfig.patterns ? { toolPatterns: definition.toolConfig.patterns } : {}),
    ...(definition.mcpServers ? { mcpServers: definition.mcpServers } : {}),
  };
  // Read by the cost limit and the result; kept in the state so a resume keeps the total.
  const parent = spawnParentOf(
    prepared,
    deadline,
    tools,
    (result) => {
      if (result.cost_usd === undefined && result.usage.costUsd === undefined) return;
      (state.subagentCosts ??= []).push({
        agent: result.agent,
        execution_id: result.execution_id,
        cost_usd: result.cost_usd ?? result.usage.costUsd ?? 0,
      });
    },
    budget,
  );
  // `execution_mode: threads` in the definition: every child of this agent gets a worker thread.
  const placed = (request: SpawnRequest): SpawnRequest =>
    definition.runConfig?.execution_mode === 'threads' && request.isolation === undefined
      ? { ...request, isolation: 'thread' }
      : request;
  return {
    spawn: (request) => {
      // A subagent's model calls are the run's spending too.
      if (costSpent({ budget }))
        throw new ToolExecutionError(
          `Not started: the run's cost limit ($${costLimitOf({ budget, maxCostUsd })}) is spent.`,
        );
      return spawnChild(services, parent, placed(request), callerSignal, { canPause: true });
    },
    resumeSpawn: (request, resume) =>
      spawnChild(services, parent, placed(request), callerSignal, { canPause: true, resume }),
  };
}

function generationConfig(definition: AgentDefinition): GenerationConfig {
  const m = definition.modelConfig;
  const config: GenerationConfig = {};
  if (m?.temp !== undefined) config.temperature = m.temp;
  if (m?.top_p !== undefined) config.topP = m.top_p;
  if (m?.thinkingBudget !== undefined) config.thinkingBudget = m.thinkingBudget;
  if (m?.maxOutputTokens !== undefined) config.maxOutputTokens = m.maxOutputTokens;
  if (m?.topK !== undefined) config.topK = m.topK;
  if (m?.stopSequences !== undefined) config.stopSequences = m.stopSequences;
  return config;
}
