import type { AgentEntry } from '../../contracts/agent.js';
import { ToolExecutionError } from '../../errors/cadre-error.js';
import { childExecution, pathString } from '../../events/execution-context.js';
import type { EventSink, ExecutionContext } from '../../events/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { FALLBACK_MODEL } from '../loop/run-options.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import { codeAgentInput } from '../prompt/code-agent-input.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { Semaphore } from '../../util/semaphore.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import type { SpawnServices } from './spawn-services.js';
import { childJournal } from './child-journal.js';
import { splitGrants } from '../loop/offered-tools.js';
import { resolveToolSet, selectTools, ToolSets, type ToolSet } from './tool-set.js';
import { storedSpendUsd } from '../loop/run-cost.js';
import type { SpawnRequest } from '../../contracts/agent.js';
import {
  childScope,
  ChildLaunchPaused,
  scopedCallId,
  ParentCallPaused,
  type ChildResume,
} from './child-pause.js';

/** How a spawn may end besides a result: waiting for a person, and going on from such a wait. */
export interface SpawnMode {
  /**
   * The caller can keep a paused child in its own paused turn (a declarative
   * agent's loop): a pause decided inside the child pauses the whole run.
   * Otherwise (code agents, routers, workflows) the child is told to report instead.
   */
  canPause?: boolean;
  /** Continue a child that paused before, where it stopped. */
  resume?: ChildResume;
}

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
  /** The parent's cost budget: every child's calls reserve against it (and its ancestors'). */
  budget?: CostBudget;
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
  mode: SpawnMode = {},
): Promise<RunResult> {
  const name = entryName(request.target);
  const depth = parent.execution.depth + 1;
  if (depth > services.maxDepth) {
    throw new ToolExecutionError(
      `Subagent depth limit (${services.maxDepth}) reached: ${pathString(parent.execution)} cannot start '${name}'. Do the work yourself or finish.`,
    );
  }
  const fresh = childExecution(parent.execution, name);
  // A resumed child is the same execution as before it paused: same id, same scope.
  const execution = mode.resume ? { ...fresh, executionId: mode.resume.child.executionId } : fresh;
  const scope = mode.resume?.child.scope ?? childScope(name, execution.executionId);
  // A worker-thread child that pauses sends its state back and resumes in this process.
  const canPause = mode.canPause === true;
  parent.emit({
    type: mode.resume ? 'subagent_resumed' : 'subagent_started',
    message: `${mode.resume ? 'Resuming' : 'Starting'} ${name}`,
    data: {
      agent: name,
      executionId: execution.executionId,
      depth,
      ephemeral: request.ephemeral,
      ...(request.callId ? { callId: request.callId } : {}),
    },
  });
  // The budget is taken once a slot is granted, so time spent queueing is not given twice.
  const run = (): Promise<RunResult> =>
    runTarget(
      childServices(services, scope, canPause),
      parent,
      request,
      execution,
      Math.min(request.timeoutMs ?? Infinity, parent.remainingMs()),
      signal,
      mode.resume,
      canPause,
    );
  // Per-parent first, then global; a child of a child runs under the slot its
  // ancestor already holds, so nested fan-out can never deadlock on the global limit.
  const limited = (): Promise<RunResult> => parent.perParent().run(run, signal);
  let result: RunResult | undefined;
  let paused: ParentCallPaused | undefined;
  try {
    result = await (parent.execution.depth === 0
      ? services.global().run(limited, signal)
      : limited());
    parent.childFinished?.(result);
  } catch (error) {
    if (!(error instanceof ChildLaunchPaused)) throw error;
    paused = new ParentCallPaused({
      executionId: execution.executionId,
      scope,
      agent: name,
      state: error.state,
      // Ids as the parent's tree knows them; the path from the root to the agent that asked.
      pending: error.pending.map((call) => ({
        ...call,
        callId: scopedCallId(scope, call.callId),
        path: call.path ?? [...execution.path, call.tool],
      })),
    });
    throw paused;
  } finally {
    parent.emit({
      type: paused ? 'subagent_paused' : 'subagent_finished',
      message: `${name}: ${paused ? 'waiting for approval' : (result?.terminate_reason ?? 'did not finish')}`,
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
  resume: ChildResume | undefined,
  canPause: boolean,
): Promise<RunResult> {
  const resumed = resume
    ? { resume: { state: resume.child.state, decisions: resume.decisions } }
    : {};
  const signal = request.signal ? AbortSignal.any([cancel, request.signal]) : cancel;
  const shared = {
    runId: parent.runId,
    execution,
    services,
    signal,
    // A thread child resumed here keeps the thread's rule: no subagents of its own.
    allowNested: resume && request.isolation === 'thread' ? false : (request.allowNested ?? true),
    timeBudgetMs: budgetMs,
    ...(parent.budget ? { budget: parent.budget } : {}),
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
      options: {
        ...shared,
        ...(request.model ? { modelName: request.model } : {}),
        ...(canPause ? { canPause: true } : {}),
        ...resumed,
      },
    });
  }
  let definition = withGrant(target.definition, childGrant(target.definition, parent, request));
  if (request.ephemeral) definition = withParentTools(definition, parent);
  if (request.model)
    definition = {
      ...definition,
      modelConfig: { ...definition.modelConfig, model: request.model },
    };
  if (request.isolation === 'thread' && !resume) {
    const blocker = threadBlocker(definition, services);
    const room = parent.budget?.remainingUsd();
    const costLimit = room !== undefined && Number.isFinite(room) ? Math.max(0, room) : undefined;
    if (!blocker) {
      const job = {
        definition,
        inputs: request.inputs,
        ...(request.history ? { history: request.history } : {}),
        model: definition.modelConfig?.model ?? services.defaultModel ?? FALLBACK_MODEL,
        env: { ...process.env },
        cwd: process.cwd(),
        workspace: services.workspace,
        ...(services.protectedPaths ? { protectedPaths: services.protectedPaths } : {}),
        timeBudgetMs: Number.isFinite(budgetMs) ? budgetMs : DEFAULT_MAX_TIME_MINUTES * 60_000,
        ...(costLimit !== undefined ? { costLimitUsd: costLimit } : {}),
        runId: parent.runId,
        execution,
      };
      // Worker threads load only for the runs that ask for one.
      return import('./run-in-thread.js').then(({ runInThread }) =>
        chargedToParent(runInThread(services, job, signal), parent.budget),
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
    options: {
      ...shared,
      inputs: request.inputs,
      ...resumed,
    },
  });
}

/**
 * A thread child's spending, counted in the parent's budget once it ends or
 * pauses (it could not reserve there while it ran).
 */
async function chargedToParent(
  running: Promise<RunResult>,
  budget: CostBudget | undefined,
): Promise<RunResult> {
  try {
    const result = await running;
    budget?.charge(result.cost_usd ?? result.usage.costUsd ?? 0);
    return result;
  } catch (error) {
    if (error instanceof ChildLaunchPaused) budget?.charge(storedSpendUsd(error.state));
    throw error;
  }
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
  // A thread has no remote agent kind (the layers above register it in this one).
  if (definition.remote) return 'remote agents run in the caller';
  // Nor a caller's own kinds.
  if (definition.kind !== undefined) return 'agents of a registered kind run in the caller';
  if (splitGrants(definition, services.pool, services.mcp.projectServers()).mcp.length > 0)
    return 'its MCP servers belong to this process';
  return undefined;
}

/**
 * What a child's calls see of the tree's services: its call ids carry its
 * scope wherever they are claimed or decided, and the request says whether
 * the tree can wait. Where it cannot (below a code agent run to the end), a
 * decision to pause becomes a refusal the child's model can read and work around.
 */
function childServices(services: SpawnServices, scope: string, canPause: boolean): SpawnServices {
  const { confirm, journal } = services;
  const scoped = <T extends { id: string }>(call: T): T => ({
    ...call,
    id: scopedCallId(scope, call.id),
  });
  return {
    ...services,
    confirm: async (request, signal) => {
      const decision = await confirm(
        {
          ...request,
          callId: scopedCallId(scope, request.callId),
          canPause: canPause && request.canPause !== false,
        },
        signal,
      );
      return decision.kind === 'pause' && !canPause
        ? {
            kind: 'reject',
            feedback:
              'This needs a person’s approval, which this subagent cannot wait for here. Report what you would do instead.',
          }
        : decision;
    },
    journal: childJournal(journal, scoped),
  };
}
