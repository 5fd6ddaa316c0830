import type { Agent, AgentContext, AgentInput } from '../../contracts/agent.js';
import { CostLimitError, isAbortError, ToolExecutionError } from '../../errors/cadre-error.js';
import { CostBudget } from '../../cost/cost-budget.js';
import { budgetedClient } from './budgeted-call.js';
import { addUsage, emptyUsage, type Usage } from '../../model/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import type {
  RunResult,
  SubagentCost,
  TerminateReason,
  ToolTrace,
} from '../../contracts/run-result.js';
import type { LaunchChild } from '../subagents/spawn-services.js';
import { spawnChild } from '../subagents/spawn-child.js';
import { announceResult, closingServers, frameDeadline, spawnParentOf } from './execution-frame.js';
import { pickModel, prepareExecution, runtimeFor } from './prepare-execution.js';
import type { ExecutionOptions } from './run-options.js';
import { runCostUsd, storedSpendUsd } from './run-cost.js';
import type { AwaitedCall, RunState } from '../../contracts/run-state.js';
import type { ResumeDecision } from '../../contracts/confirmation.js';
import { ChildLaunchPaused } from '../subagents/child-pause.js';
import { codeReplay } from '../subagents/code-replay.js';

export type CodeAgentOptions = Omit<ExecutionOptions, 'inputs' | 'onStateChange'> & {
  modelName?: string;
  /** The definition's `max_cost_usd` (a router or workflow), nested in its tree's budget. */
  maxCostUsd?: number;
  /** A child's pause below this agent pauses the run (see code-replay). */
  canPause?: boolean;
  /** Go on from a pause: the stored run and the people's decisions. */
  resume?: { state: RunState; decisions: Readonly<Record<string, ResumeDecision>> };
};

/** A code agent run ends with a result, or paused with a child waiting for a person. */
export type CodeOutcome =
  | { status: 'finished'; result: RunResult }
  | { status: 'paused'; state: RunState; pending: AwaitedCall[] };

/** A code agent ready to run: what a router or workflow definition becomes. */
export interface CodeAgentRun {
  agent: Agent;
  input: AgentInput;
  options: CodeAgentOptions;
}

/**
 * Runs a code agent in the executor's frame: the same services, limits,
 * deadline, events (exactly one final_result) and RunResult shape as a
 * definition. The executor passes `launch`, how the tree starts children.
 */
export async function driveCodeAgent(
  agent: Agent,
  input: AgentInput,
  options: CodeAgentOptions,
  launch: LaunchChild,
): Promise<RunResult> {
  const outcome = await driveCodeOutcome(agent, input, options, launch);
  // Only a run that can pause pauses; as a child, its parent's call pauses with it.
  if (outcome.status === 'paused') throw new ChildLaunchPaused(outcome.state, outcome.pending);
  return outcome.result;
}

export async function driveCodeOutcome(
  agent: Agent,
  given: AgentInput,
  options: CodeAgentOptions,
  launch: LaunchChild,
): Promise<CodeOutcome> {
  const startedAtMs = performance.now();
  const prepared = prepareExecution(options, agent.name, launch, await runtimeFor(options));
  return closingServers(prepared, async () => {
    const { runId, execution, emit, services } = prepared;
    const picked = pickModel(options.modelName, services);
    const model = picked.model;
    const input = options.resume?.state.code?.input ?? given;
    const replay = options.canPause
      ? codeReplay(input, options.resume?.state.code, options.resume?.decisions ?? {})
      : undefined;
    // Under its parent's budget; its state's spend when it resumes. Replayed replies cost nothing again.
    const budget = CostBudget.open({
      limitUsd: options.maxCostUsd,
      parent: options.budget,
      spentUsd: options.resume ? storedSpendUsd(options.resume.state) : 0,
    });
    const live = budgetedClient(picked.client, budget, services.prices);
    const client = replay ? replay.model(live) : live;
    // A resumed run has only the time it had not used before it paused.
    const usedMs = options.resume?.state.activeMs ?? 0;
    const deadline = frameDeadline(
      DEFAULT_MAX_TIME_MINUTES * 60_000,
      options.timeBudgetMs,
      usedMs,
      services.clock,
    );
    const callerSignal = options.signal ?? new AbortController().signal;
    const signal = AbortSignal.any([
      callerSignal,
      deadline.signal,
      ...(replay ? [replay.stopped] : []),
    ]);
    let usage: Usage = emptyUsage();
    const children: SubagentCost[] = [];
    let turns = 0;
    // On resume the agent replays what it did before the pause: its own events up to there were already emitted.
    const emitOwn: typeof emit = (event) => {
      if (!replay || replay.fresh()) emit(event);
    };
    const parent = spawnParentOf(
      prepared,
      deadline,
      { grantedNames: [] },
      (result) => {
        const cost = result.cost_usd ?? result.usage.costUsd;
        if (cost !== undefined)
          children.push({ agent: result.agent, execution_id: result.execution_id, cost_usd: cost });
      },
      budget,
    );
    const ctx: AgentContext = {
      runId,
      execution,
      signal,
      model: client,
      modelName: model,
      spawn: (request) => {
        if (options.allowNested === false)
          throw new ToolExecutionError(`${agent.name} may not start subagents.`);
        const limit = budget.exhausted();
        if (limit !== undefined) throw new CostLimitError(limit);
        return replay
          ? replay.spawn(
              request,
              (mode) => spawnChild(services, parent, request, callerSignal, mode),
              (result) => parent.childFinished?.(result),
            )
          : spawnChild(services, parent, request, callerSignal);
      },
      remainingMs: () => deadline.remaining(),
      workspace: services.workspace,
      emit: emitOwn,
      traceCarrier: () => services.traceCarrier?.(execution.executionId),
    };

    if (options.resume)
      emit({
        type: 'run_resumed',
        message: `Resuming ${agent.name}`,
        data: { decisions: Object.keys(options.resume.decisions).length },
      });
    else
      emit({
        type: 'run_started',
        message: `Running ${agent.name} on ${model}`,
        data: { agent: agent.name, model, input },
      });
    let final: Record<string, unknown> | undefined;
    let reason: TerminateReason = 'ERROR';
    let error: { code: string; message: string } | undefined;
    let limitMessage: string | undefined;
    try {
      for await (const event of agent.execute(input, ctx)) {
        if (event.type === 'final_result') {
          final = event.data ?? {};
          continue;
        }
        if (event.type === 'usage') usage = addUsage(usage, toUsage(event.data));
        if (event.type === 'turn_started') turns++;
        emitOwn(event);
      }
      reason = final ? 'GOAL' : 'ERROR';
      if (!final)
        error = { code: 'no_completion', message: `${agent.name} ended without a final result.` };
    } catch (cause) {
      if (isAbortError(cause) || signal.aborted)
        reason = callerSignal.aborted ? 'ABORTED' : 'TIMEOUT';
      else if (cause instanceof CostLimitError) {
        // Ends like a declarative agent at its cap: a limit, not a failure.
        reason = 'MAX_COST';
        limitMessage = `Agent reached the cost limit ($${cause.limitUsd}).`;
      } else
        error = {
          code: 'internal',
          message: `${agent.name} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
        };
    } finally {
      deadline.dispose();
    }
    if (replay?.stopped.aborted && !callerSignal.aborted && !deadline.signal.aborted) {
      const pending = replay.pending();
      const state: RunState = {
        version: 1,
        runId,
        agent: agent.name,
        model,
        messages: [],
        turns,
        // Time spent waiting for the person is not counted.
        activeMs: usedMs + (performance.now() - startedAtMs),
        startedAt: options.resume?.state.startedAt ?? new Date().toISOString(),
        emittedVars: {},
        traces: [],
        usage,
        costSpentUsd: budget.spentUsd(),
        alwaysApproved: [],
        nudged: false,
        code: replay.memo,
        status: 'paused',
      };
      emit({
        type: 'run_paused',
        message: `Waiting for approval of ${pending.map((p) => p.preview).join('; ')}`,
        data: { pending },
      });
      return { status: 'paused', state, pending };
    }
    const content =
      typeof final?.content === 'string'
        ? final.content
        : (error?.message ?? limitMessage ?? `${agent.name}: ${reason}`);
    const result: RunResult = {
      run_id: runId,
      execution_id: execution.executionId,
      agent: agent.name,
      terminate_reason: reason,
      output: final ? (final.output ?? content) : null,
      final_message: content,
      emitted_vars: {},
      content,
      response_time_secs: (performance.now() - startedAtMs) / 1000,
      traces: Array.isArray(final?.traces) ? (final.traces as ToolTrace[]) : [],
      usage,
      ...(usage.costUsd !== undefined || children.length > 0
        ? {
            cost_usd: runCostUsd({ usage, subagentCosts: children }),
            ...(children.length > 0 ? { subagent_costs: children } : {}),
          }
        : {}),
      turns,
      ...(error ? { error } : {}),
    };
    announceResult(emit, result);
    return { status: 'finished', result };
  });
}

function toUsage(data: Record<string, unknown> | undefined): Usage {
  const n = (key: keyof Usage): number =>
    typeof data?.[key] === 'number' ? (data[key] as number) : 0;
  return {
    inputTokens: n('inputTokens'),
    outputTokens: n('outputTokens'),
    thoughtTokens: n('thoughtTokens'),
    totalTokens: n('totalTokens'),
    ...(typeof data?.cachedInputTokens === 'number'
      ? { cachedInputTokens: data.cachedInputTokens }
      : {}),
    ...(typeof data?.costUsd === 'number' ? { costUsd: data.costUsd } : {}),
  };
}
