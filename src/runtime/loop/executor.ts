import {
  emptyUsage,
  type FunctionCallPart,
  type GenerationConfig,
  type ModelClient,
} from '../../model/types.js';
import {
  DEFAULT_MAX_TIME_MINUTES,
  DEFAULT_MAX_TURNS,
  type AgentDefinition,
} from '../../definition/types.js';
import {
  completionDeclarations,
  completionProtocol,
  type CompletionProtocol,
} from '../completion/completion.js';
import { ConfigError, ToolExecutionError } from '../../errors/cadre-error.js';
import type { ConfirmationDecision } from '../calls/confirmation.js';
import { previewOf } from '../calls/approvals.js';
import { finishRun } from './finish.js';
import { graceTurn, GRACE_MS } from './grace-turn.js';
import { validateInputs } from '../prompt/inputs.js';
import type { LoopContext } from './loop-context.js';
import { pickModel, prepareExecution, type PreparedExecution } from './prepare-execution.js';
import { preparePrompt } from '../prompt/prompts.js';
import type { ExecutionOptions } from './run-options.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { AwaitedCall, RunState } from '../../contracts/run-state.js';
import { readRunState } from '../../contracts/run-state-version.js';
import { ExecutionPaused } from '../subagents/child-pause.js';
import { isRecoverable, type Stop } from './stop.js';
import { grantedTools } from '../subagents/granted-tools.js';
import { definitionTools } from '../subagents/definition-tools.js';
import { spawnChild } from '../subagents/spawn-child.js';
import { answerCalls, takeTurn } from './take-turn.js';
import { eitherSignal } from './either-signal.js';
import { settlePendingTurn } from './settle-pending.js';
import { routerRun } from '../router/run-router.js';
import { workflowRun } from '../workflow/run-workflow.js';
import { remoteRun } from '../../a2a/remote-run.js';
import { costSpent } from './cost-ceiling.js';
import { toolModelCall } from './tool-model-call.js';
import { definitionMcpTools, splitGrants } from '../../mcp/client/definition-mcp-tools.js';
import type { McpTools } from '../../mcp/client/mcp-hub.js';
import type { LaunchChild, SpawnServices } from '../subagents/spawn-services.js';
import type { Agent, AgentInput } from '../../contracts/agent.js';
import { compactionSettings } from '../compaction/compaction-settings.js';
import {
  driveCodeAgent,
  driveCodeOutcome,
  type CodeAgentOptions,
  type CodeAgentRun,
} from './code-agent-runner.js';
import { announceResult, closingServers, frameDeadline, spawnParentOf } from './execution-frame.js';

export {
  FALLBACK_MODEL,
  type ExecutionOptions,
  type ModelResolver,
  type RunOptions,
} from './run-options.js';

/** A run either finished, or paused with side-effecting calls waiting for a person. */
export type RunOutcome =
  | { status: 'finished'; result: RunResult }
  | { status: 'paused'; state: RunState; pending: PendingCall[] };

/** A call waiting for a person, anywhere in the run tree (a subagent's id is scoped, with its path). */
export type PendingCall = AwaitedCall;

/**
 * Runs an agent definition to the end. Bad inputs or templates throw
 * ValidationError before any model call; once started, every outcome
 * (failures included) is a RunResult and exactly one final_result event.
 */
export async function executeAgent(
  definition: AgentDefinition,
  options: ExecutionOptions = {},
): Promise<RunResult> {
  const outcome = await startRun(definition, options);
  if (outcome.status === 'paused') {
    throw new ConfigError(
      'A confirmation handler deferred its decision: use startRun and resumeRun to pause and resume a run.',
    );
  }
  return outcome.result;
}

/**
 * Starts a run. It finishes, or pauses when the confirmation handler defers
 * a decision: the returned state is plain data to store and later pass to
 * resumeRun (in this process or another).
 */
export async function startRun(
  definition: AgentDefinition,
  options: ExecutionOptions = {},
): Promise<RunOutcome> {
  const code = codeRunOf(definition, options);
  if (code) return pausableCode(code);
  const startedAtMs = performance.now();
  const prepared = await prepareExecution(options, definition.name, launchChild);
  return closingServers(prepared, async () => {
    const { runId, emit, services } = prepared;
    const inputs = validateInputs(definition, options.inputs ?? {}, services.runtime.validator);
    const protocol = await completionProtocol(definition, services.runtime.validator);
    const prompt = preparePrompt(
      definition,
      inputs,
      protocol,
      options.history,
      options.memory,
      options.state,
    );
    const { client, model } = pickModel(definition.modelConfig?.model, services);
    const state: RunState = {
      version: 1,
      runId,
      agent: definition.name,
      model,
      systemInstruction: prompt.systemInstruction,
      messages: options.conversation ? structuredClone(options.conversation) : prompt.messages,
      turns: 0,
      activeMs: 0,
      startedAt: new Date().toISOString(),
      emittedVars: {},
      traces: [],
      usage: emptyUsage(),
      alwaysApproved: [],
      nudged: false,
      status: 'running',
    };
    const offered = await offeredTools(definition, services, options.signal);
    const ctx = loopContext(definition, state, protocol, client, prepared, options, offered);
    emit({
      type: 'run_started',
      message: `Running ${definition.displayName ?? definition.name} on ${model}`,
      data: { agent: definition.name, model, inputs, tools: ctx.registry.names() },
    });
    return drive(ctx, startedAtMs, options, () => loop(ctx, options.onStateChange));
  });
}

/**
 * Resumes a paused run from its stored state with a decision for every
 * waiting call. Approved calls run exactly once (guarded by `claim`), then
 * the loop goes on with the real results until it finishes or pauses again.
 */
export async function resumeRun(
  definition: AgentDefinition,
  stored: Readonly<RunState>,
  decisions: Readonly<Record<string, ConfirmationDecision>>,
  options: ExecutionOptions = {},
): Promise<RunOutcome> {
  // Stored by this version or an older one (upgraded); a newer one is refused.
  stored = readRunState(stored);
  const pending = stored.pendingTurn;
  if (stored.status !== 'paused' || (!pending && !stored.code))
    throw new ConfigError(`Run ${stored.runId} is not waiting for approval.`);
  const deferred = Object.entries(decisions).filter(([, d]) => d.kind === 'defer');
  if (deferred.length > 0)
    throw new ConfigError(
      `A resumed call needs a decision, not "defer" (${deferred.map(([id]) => id).join(', ')}).`,
    );
  const missing = awaitedCalls(stored).filter((c) => !decisions[c.callId]);
  if (missing.length > 0)
    throw new ConfigError(
      `No decision for call${missing.length > 1 ? 's' : ''} ${missing.map((c) => c.callId).join(', ')}.`,
    );
  const code = stored.code ? codeRunOf(definition, { ...options, runId: stored.runId }) : undefined;
  if (code) return pausableCode(code, { state: structuredClone(stored) as RunState, decisions });
  return continueRun(
    definition,
    stored,
    options,
    { message: `Resuming ${definition.name}`, data: { decisions: Object.keys(decisions).length } },
    async (ctx) => {
      const stop = await settlePendingTurn(ctx, decisions);
      // Persist right away: the side effects just ran and must not be asked for again.
      options.onStateChange?.(ctx.state);
      return stop ?? loop(ctx, options.onStateChange);
    },
  );
}

/**
 * Takes over a run whose process stopped mid-flight, from its last stored
 * state. A turn checkpointed before its side effects is answered again call
 * by call: effects go through `claim`, which answers the ones that already
 * ran (or may have) from their records, so nothing runs twice.
 */
export async function recoverRun(
  definition: AgentDefinition,
  stored: Readonly<RunState>,
  options: ExecutionOptions = {},
): Promise<RunOutcome> {
  stored = readRunState(stored);
  if (stored.status !== 'running')
    throw new ConfigError(`Run ${stored.runId} was not running (${stored.status}).`);
  return continueRun(
    definition,
    stored,
    options,
    { message: `Taking over ${definition.name}`, data: { recovered: true } },
    async (ctx) => {
      const pending = ctx.state.pendingTurn;
      if (pending) {
        delete ctx.state.pendingTurn;
        const signal = eitherSignal(ctx.callerSignal, ctx.deadline.signal, ctx.cancellable);
        const stop = await answerCalls(ctx, pending.calls, ctx.offered, signal, false);
        options.onStateChange?.(ctx.state);
        if (stop) return stop;
      }
      return loop(ctx, options.onStateChange);
    },
  );
}

async function continueRun(
  definition: AgentDefinition,
  stored: Readonly<RunState>,
  options: ExecutionOptions,
  resumed: { message: string; data: Record<string, unknown> },
  body: (ctx: LoopContext) => Promise<Stop>,
): Promise<RunOutcome> {
  const state = structuredClone(stored) as RunState;
  state.status = 'running';
  const prepared = await prepareExecution(
    { ...options, runId: state.runId },
    definition.name,
    launchChild,
  );
  return closingServers(prepared, async () => {
    const protocol = await completionProtocol(definition, prepared.services.runtime.validator);
    const { client } = pickModel(state.model, prepared.services);
    const offered = await offeredTools(definition, prepared.services, options.signal);
    const ctx = loopContext(definition, state, protocol, client, prepared, options, offered);
    ctx.emit({ type: 'run_resumed', ...resumed });
    // Wall clock counts from the run's start, waiting included.
    const startedAtMs = performance.now() - (Date.now() - Date.parse(state.startedAt));
    return drive(ctx, startedAtMs, options, () => body(ctx));
  });
}

/**
 * Runs a code agent (built-in, registered, or what a router or workflow
 * definition becomes) in the same frame as a definition, with the same result.
 */
export function runCodeAgent(
  agent: Agent,
  input: AgentInput,
  options: CodeAgentOptions = {},
): Promise<RunResult> {
  return driveCodeAgent(agent, input, options, launchChild);
}

/** A router, workflow or remote definition as the code agent it runs as; undefined for a loop agent. */
function codeRunOf(
  definition: AgentDefinition,
  options: ExecutionOptions,
): CodeAgentRun | undefined {
  if (definition.router) return routerRun({ ...definition, router: definition.router }, options);
  if (definition.workflow)
    return workflowRun({ ...definition, workflow: definition.workflow }, options);
  if (definition.remote) return remoteRun({ ...definition, remote: definition.remote }, options);
  return undefined;
}

/** Runs a router or workflow that may wait for a person (its children's approvals). */
const pausableCode = (
  run: CodeAgentRun,
  resume?: CodeAgentOptions['resume'],
): Promise<RunOutcome> =>
  driveCodeOutcome(
    run.agent,
    run.input,
    { ...run.options, pausable: true, ...(resume ? { resume } : {}) },
    launchChild,
  );

/** How every run tree starts its children: here, so subagent code never imports the executor. */
const launchChild: LaunchChild = async (child) => {
  if (child.kind === 'code')
    return driveCodeAgent(child.agent, child.input, child.options, launchChild);
  const { resume, ...options } = child.options;
  const outcome = resume
    ? await resumeRun(child.definition, resume.state, resume.decisions, options)
    : await startRun(child.definition, options);
  // The parent's call parks with this state; the run resumes it where it stopped.
  if (outcome.status === 'paused') throw new ExecutionPaused(outcome.state, outcome.pending);
  return outcome.result;
};

interface OfferedTools {
  /** Pool tools, `task` and agents, by name. */
  local: string[];
  mcp: McpTools;
}

/** Splits a definition's grants and starts (or reuses) the MCP servers they need. */
async function offeredTools(
  definition: AgentDefinition,
  services: SpawnServices,
  signal: AbortSignal | undefined,
): Promise<OfferedTools> {
  const grants = splitGrants(definition, services.pool, services.mcp.projectServers());
  const builtins = definitionTools(definition, grants.local);
  const mcp = await definitionMcpTools(
    definition,
    grants.mcp,
    services.mcp,
    services.runtime.validator,
    signal ?? new AbortController().signal,
  );
  return {
    local: grants.local.filter((name) => !builtins.some((tool) => tool.name === name)),
    mcp: { ...mcp, tools: [...builtins, ...mcp.tools] },
  };
}

function loopContext(
  definition: AgentDefinition,
  state: RunState,
  protocol: CompletionProtocol,
  client: ModelClient,
  prepared: PreparedExecution,
  options: ExecutionOptions,
  offered: OfferedTools,
): LoopContext {
  const { runId, execution, emit, services } = prepared;
  const allowNested = options.allowNested ?? true;
  const { registry, withheld } = grantedTools(
    offered.local,
    services,
    allowNested,
    offered.mcp.tools,
  );
  for (const warning of offered.mcp.warnings) emit({ type: 'warning', message: warning, data: {} });
  if (withheld.length > 0) {
    emit({
      type: 'warning',
      message: `Nested subagents are not allowed here; withheld: ${withheld.join(', ')}`,
      data: { withheld },
    });
  }
  const declarations = [
    ...registry.declarations(services.runtime.declarations),
    ...completionDeclarations(protocol),
  ];
  const ownBudgetMs = (definition.runConfig?.max_time_minutes ?? DEFAULT_MAX_TIME_MINUTES) * 60_000;
  // A resumed run has only what it had not used before it paused.
  const deadline = frameDeadline(ownBudgetMs, options.timeBudgetMs, state.activeMs);
  // Per run, never shared: listeners added to it must not pile up across runs.
  const callerSignal = options.signal ?? new AbortController().signal;
  const tools = {
    grantedNames: registry.names(),
    ...(definition.toolConfig.patterns ? { toolPatterns: definition.toolConfig.patterns } : {}),
    ...(definition.mcpServers ? { mcpServers: definition.mcpServers } : {}),
  };
  const maxCostUsd = definition.runConfig?.max_cost_usd;
  // Read by the cost limit and the result; kept in the state so a resume keeps the total.
  const parent = spawnParentOf(prepared, deadline, tools, (result) => {
    if (result.cost_usd === undefined && result.usage.costUsd === undefined) return;
    (state.subagentCosts ??= []).push({
      agent: result.agent,
      execution_id: result.execution_id,
      cost_usd: result.cost_usd ?? result.usage.costUsd ?? 0,
    });
  });
  return {
    definition,
    state,
    protocol,
    registry,
    declarations,
    offered: new Set(declarations.map((d) => d.name)),
    client,
    generation: generationConfig(definition),
    validator: services.runtime.validator,
    confirm: services.confirm,
    emit,
    deadline,
    callerSignal,
    cancellable: options.signal !== undefined,
    toolContext: {
      runId,
      execution,
      workspace: services.workspace,
      ...(services.protectedPaths ? { protectedPaths: services.protectedPaths } : {}),
      emit,
      // What an MCP server asks mid-call: this agent's model (priced as the run's), its person.
      generate: toolModelCall(client, state, emit, services.prices, maxCostUsd),
      confirm: services.confirm,
      // A child stops on cancellation, not on the parent's deadline: its own budget is the
      // parent's remaining time, so it can still use its grace turn to report.
      ...(allowNested
        ? {
            spawn: (request) => {
              // A subagent's model calls are the run's spending too.
              if (costSpent({ maxCostUsd, state }))
                throw new ToolExecutionError(
                  `Not started: the run's cost limit ($${maxCostUsd ?? 0}) is spent.`,
                );
              return spawnChild(services, parent, request, callerSignal, { suspendable: true });
            },
          }
        : {}),
    },
    ...(allowNested
      ? {
          resumeSpawn: (request, resume) =>
            spawnChild(services, parent, request, callerSignal, { suspendable: true, resume }),
        }
      : {}),
    maxTurns: definition.runConfig?.max_turns ?? DEFAULT_MAX_TURNS,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    prices: services.prices,
    ...(services.claim ? { claim: services.claim } : {}),
    ...(services.settle ? { settle: services.settle } : {}),
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
    ...(services.interceptors ? { interceptors: services.interceptors } : {}),
    ...(services.policy ? { policy: services.policy } : {}),
    // A child has no options of its own for this: it reads its root's table through the services.
    compaction: compactionSettings(definition.runConfig?.compaction, state.model, {
      ...options,
      ...(services.contextWindows ? { contextWindows: services.contextWindows } : {}),
    }),
  };
}

/** Runs the body, then the grace turn if needed; ends with a result (one final_result) or a pause. */
async function drive(
  ctx: LoopContext,
  startedAtMs: number,
  options: ExecutionOptions,
  body: () => Promise<Stop>,
): Promise<RunOutcome> {
  const { state } = ctx;
  const segmentStart = performance.now();
  let stop: Stop = {
    reason: 'ERROR',
    error: { code: 'internal', message: 'The run did not finish.' },
  };
  try {
    stop = await body();
    if (isRecoverable(stop) && !ctx.callerSignal.aborted) {
      // No grace turn once the budget is spent, whatever stopped the run: it would be a paid call.
      stop =
        stop.reason === 'MAX_COST' || costSpent(ctx)
          ? { reason: 'MAX_COST' }
          : await graceTurn(
              ctx,
              stop.reason,
              options.graceMs ?? options.services?.graceMs ?? GRACE_MS,
            );
    }
  } catch (error) {
    stop = {
      reason: 'ERROR',
      error: { code: 'internal', message: `Unexpected failure: ${String(error)}` },
    };
  } finally {
    state.activeMs += performance.now() - segmentStart;
    ctx.deadline.dispose();
  }
  if (stop.reason === 'PAUSED') {
    state.status = 'paused';
    const pending = pendingCalls(ctx);
    ctx.emit({
      type: 'run_paused',
      message: `Waiting for approval of ${pending.map((p) => p.preview).join('; ')}`,
      data: { pending },
    });
    options.onStateChange?.(state);
    return { status: 'paused', state, pending };
  }
  const result = finishRun(ctx, stop, startedAtMs);
  announceResult(ctx.emit, result);
  return { status: 'finished', result };
}

function pendingCalls(ctx: LoopContext): PendingCall[] {
  return awaitedCalls(ctx.state, (call) => {
    const tool = ctx.registry.get(call.name);
    return tool ? previewOf(tool, call.args) : call.name;
  });
}

/** Every call of the tree waiting for a decision: this turn's own, then those of its paused subagents. */
function awaitedCalls(
  state: Readonly<RunState>,
  preview: (call: FunctionCallPart) => string = (call) => call.name,
): PendingCall[] {
  if (state.code)
    return Object.values(state.code.spawns).flatMap((s) => ('child' in s ? s.child.pending : []));
  const pending = state.pendingTurn;
  if (!pending) return [];
  return pending.calls.flatMap((call, i) => {
    if (pending.responses[i] !== null) return [];
    const child = pending.children?.[call.id];
    if (child) return child.pending;
    return [{ callId: call.id, tool: call.name, args: call.args, preview: preview(call) }];
  });
}

async function loop(
  ctx: LoopContext,
  onStateChange?: (state: Readonly<RunState>) => void,
): Promise<Stop> {
  const signal = eitherSignal(ctx.callerSignal, ctx.deadline.signal, ctx.cancellable);
  for (;;) {
    if (ctx.callerSignal.aborted) return { reason: 'ABORTED' };
    if (ctx.deadline.expired) return { reason: 'TIMEOUT' };
    if (ctx.state.turns >= ctx.maxTurns) return { reason: 'MAX_TURNS' };
    if (costSpent(ctx)) return { reason: 'MAX_COST' };
    const stop = await takeTurn(ctx, ctx.declarations, signal);
    onStateChange?.(ctx.state);
    if (stop) return stop;
  }
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
