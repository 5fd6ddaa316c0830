import type { AgentEntry } from '../../contracts/agent.js';
import { ToolExecutionError } from '../../errors/cadre-error.js';
import { childExecution, pathString } from '../../events/execution-context.js';
import type { EventSink, ExecutionContext } from '../../events/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { FALLBACK_MODEL } from '../loop/run-options.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import { codeAgentInput } from '../prompt/code-agent-input.js';
import { runInThread } from './run-in-thread.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { Semaphore } from '../../util/semaphore.js';
import type { SpawnServices } from './spawn-services.js';
import { splitGrants } from '../../mcp/client/definition-mcp-tools.js';
import { resolveToolSet, selectTools, ToolSets, type ToolSet } from './tool-set.js';
import type { SpawnRequest } from '../../contracts/agent.js';

/** The calling execution, as a spawn needs to see it. */
export interface SpawnParent {
  runId: string;
  execution: ExecutionContext;
  /** Tools the parent holds (names), the ceiling for call-time tool choices. */
  grantedNames: readonly string[];
  /**
   * The parent's tool patterns and MCP servers: an ephemeral child takes its
   * tools from the parent, and they stay as narrow, and resolvable, as there.
   */
  toolPatterns?: Readonly<Record<string, string[]>>;
  mcpServers?: AgentDefinition['mcpServers'];
  remainingMs(): number;
  /** The per-parent concurrency limit, created on first use (most runs never spawn). */
  perParent(): Semaphore;
  emit: EventSink;
  /** Told of each child's result (its cost counts toward the parent's). */
  childFinished?: (result: RunResult) => void;
}

export const entryName = (entry: AgentEntry): string =>
  entry.kind === 'definition' ? entry.definition.name : entry.name;

/**
 * Starts one subagent under the tree's limits: depth cap from the caller's
 * real context, tools that never exceed the parent's for call-time choices,
 * a budget bounded by the parent's remaining time, concurrency limits, and
 * the parent's signal so cancelling the parent cancels the child.
 */
export async function spawnChild(
  services: SpawnServices,
  parent: SpawnParent,
  request: SpawnRequest,
  signal: AbortSignal,
): Promise<RunResult> {
  const name = entryName(request.target);
  const depth = parent.execution.depth + 1;
  if (depth > services.maxDepth) {
    throw new ToolExecutionError(
      `Subagent depth limit (${services.maxDepth}) reached: ${pathString(parent.execution)} cannot start '${name}'. Do the work yourself or finish.`,
    );
  }
  const execution = childExecution(parent.execution, name);
  parent.emit({
    type: 'subagent_started',
    message: `Starting ${name}`,
    data: { agent: name, executionId: execution.executionId, depth, ephemeral: request.ephemeral },
  });
  // The budget is taken once a slot is granted, so time spent queueing is not given twice.
  const run = (): Promise<RunResult> =>
    runTarget(
      services,
      parent,
      request,
      execution,
      Math.min(request.timeoutMs ?? Infinity, parent.remainingMs()),
      signal,
    );
  // Per-parent first, then global; a child of a child runs under the slot its
  // ancestor already holds, so nested fan-out can never deadlock on the global limit.
  const limited = (): Promise<RunResult> => parent.perParent().run(run, signal);
  let result: RunResult | undefined;
  try {
    result = await (parent.execution.depth === 0
      ? services.global.run(limited, signal)
      : limited());
    parent.childFinished?.(result);
  } finally {
    parent.emit({
      type: 'subagent_finished',
      message: `${name}: ${result?.terminate_reason ?? 'did not finish'}`,
      data: {
        agent: name,
        executionId: execution.executionId,
        ...(result
          ? {
              terminate_reason: result.terminate_reason,
              usage: result.usage,
              ...(result.cost_usd !== undefined ? { cost_usd: result.cost_usd } : {}),
            }
          : {}),
      },
    });
  }
  return result;
}

function runTarget(
  services: SpawnServices,
  parent: SpawnParent,
  request: SpawnRequest,
  execution: ExecutionContext,
  budgetMs: number,
  cancel: AbortSignal,
): Promise<RunResult> {
  const signal = request.signal ? AbortSignal.any([cancel, request.signal]) : cancel;
  const shared = {
    runId: parent.runId,
    execution,
    services: childServices(services),
    signal,
    allowNested: request.allowNested ?? true,
    timeBudgetMs: budgetMs,
    ...(request.history ? { history: request.history } : {}),
    ...(request.memory ? { memory: request.memory } : {}),
    ...(request.state ? { state: request.state } : {}),
  };
  const target = request.target;
  if (target.kind === 'code') {
    const input = codeAgentInput(request.inputs, request);
    return services.launch({
      kind: 'code',
      agent: target.create(),
      input,
      options: { ...shared, ...(request.model ? { modelName: request.model } : {}) },
    });
  }
  let definition = withGrant(target.definition, childGrant(target.definition, parent, request));
  if (request.ephemeral) definition = withParentTools(definition, parent);
  if (request.model)
    definition = {
      ...definition,
      modelConfig: { ...definition.modelConfig, model: request.model },
    };
  if (request.isolation === 'thread') {
    const blocker = threadBlocker(definition, services);
    if (!blocker) {
      return runInThread(
        services,
        {
          definition,
          inputs: request.inputs,
          ...(request.history ? { history: request.history } : {}),
          model: definition.modelConfig?.model ?? services.defaultModel ?? FALLBACK_MODEL,
          env: { ...process.env },
          cwd: process.cwd(),
          workspace: services.workspace,
          ...(services.protectedPaths ? { protectedPaths: services.protectedPaths } : {}),
          timeBudgetMs: Number.isFinite(budgetMs) ? budgetMs : DEFAULT_MAX_TIME_MINUTES * 60_000,
          runId: parent.runId,
          execution,
        },
        signal,
      );
    }
    parent.emit({
      type: 'warning',
      message: `${definition.name} runs in this thread: ${blocker}`,
      data: { reason: blocker },
    });
  }
  return services.launch({
    kind: 'definition',
    definition,
    options: { ...shared, inputs: request.inputs },
  });
}

/**
 * A named agent's own toolConfig is its grant; tools chosen at call time
 * (ephemeral `tools`, task `config.tools`) are resolved against the parent
 * and can only narrow.
 */
function childGrant(
  definition: AgentDefinition,
  parent: SpawnParent,
  request: SpawnRequest,
): string[] {
  const parentSet = { kind: 'specific', names: parent.grantedNames } as const;
  const fromParent = (set: ToolSet): string[] =>
    selectTools(resolveToolSet(set, parentSet), parent.grantedNames);
  const base = request.ephemeral
    ? fromParent(request.tools ?? ToolSets.inherit)
    : definition.toolConfig.tools;
  if (!request.narrowTo) return base;
  const allowed = fromParent(request.narrowTo);
  return base.filter((name) => allowed.includes(name));
}

function withGrant(definition: AgentDefinition, tools: string[]): AgentDefinition {
  return tools === definition.toolConfig.tools
    ? definition
    : { ...definition, toolConfig: { ...definition.toolConfig, tools } };
}

/** An ephemeral child's tools are the parent's: so are their patterns and MCP servers. */
function withParentTools(definition: AgentDefinition, parent: SpawnParent): AgentDefinition {
  const tools = definition.toolConfig.tools;
  const patterns = Object.fromEntries(
    Object.entries(parent.toolPatterns ?? {}).filter(([tool]) => tools.includes(tool)),
  );
  return {
    ...definition,
    toolConfig: { ...definition.toolConfig, ...(Object.keys(patterns).length ? { patterns } : {}) },
    ...(parent.mcpServers
      ? { mcpServers: { ...parent.mcpServers, ...definition.mcpServers } }
      : {}),
  };
}

/** Why a child cannot move to a worker thread, or undefined when it can. */
function threadBlocker(definition: AgentDefinition, services: SpawnServices): string | undefined {
  if (services.model) return 'its model client is an in-process object';
  if (definition.processOutput || definition.outputConfig?.schema?.kind === 'zod')
    return 'it has code (processOutput or a Zod schema)';
  if (definition.router) return 'routers run in the caller';
  if (splitGrants(definition, services.pool, services.mcp.projectServers()).mcp.length > 0)
    return 'its MCP servers belong to this process';
  return undefined;
}

/**
 * A child cannot pause its parent's turn for a person: a decision deferred
 * inside it becomes a refusal the child's model can read and work around.
 */
function childServices(services: SpawnServices): SpawnServices {
  const confirm = services.confirm;
  return {
    ...services,
    confirm: async (request, signal) => {
      const decision = await confirm(request, signal);
      return decision.kind === 'defer'
        ? {
            kind: 'reject',
            feedback:
              'This needs a person’s approval, which a subagent cannot wait for. Report what you would do instead.',
          }
        : decision;
    },
  };
}
