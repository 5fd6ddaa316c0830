import type { Agent, AgentContext, AgentInput } from '../../contracts/agent.js';
import { CostLimitError, ToolExecutionError } from '../../errors/cadre-error.js';
import { CostBudget } from '../../cost/cost-budget.js';
import type { SubagentCost } from '../../contracts/run-result.js';
import type { EventSink } from '../../events/types.js';
import type { ModelClient } from '../../model/types.js';
import { DEFAULT_MAX_TIME_MINUTES } from '../../definition/types.js';
import { spawnChild, type SpawnParent } from '../subagents/spawn-child.js';
import { codeReplay, type CodeReplay } from '../subagents/code-replay.js';
import { budgetedClient } from './budgeted-call.js';
import type { CodeAgentOptions } from './code-agent-options.js';
import { spawnParentOf } from './execution-frame.js';
import { Deadline } from './deadline.js';
import { pickModel, type PreparedExecution } from './prepare-execution.js';
import { storedSpendUsd } from './run-cost.js';

/** Everything a code agent runs within: its model, budget, deadline, signals and context. */
export interface CodeFrame {
  model: string;
  input: AgentInput;
  replay: CodeReplay | undefined;
  budget: CostBudget;
  /** Time the run used before it paused, if it resumes. */
  usedMs: number;
  deadline: Deadline;
  callerSignal: AbortSignal;
  signal: AbortSignal;
  /** Emits the agent's own events, silent while a resume replays what was already emitted. */
  emitOwn: EventSink;
  /** Costs of the children that finished, filled as they finish. */
  children: SubagentCost[];
  ctx: AgentContext;
}

export function openCodeFrame(
  agent: Agent,
  given: AgentInput,
  options: CodeAgentOptions,
  prepared: PreparedExecution,
): CodeFrame {
  const { emit, services } = prepared;
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
  const deadline = Deadline.forExecution(
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
  const children: SubagentCost[] = [];
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
  const partial = { model, input, replay, budget, usedMs, deadline, callerSignal, signal };
  const frame = { ...partial, emitOwn, children };
  return { ...frame, ctx: codeAgentContext(agent, options, prepared, frame, client, parent) };
}

function codeAgentContext(
  agent: Agent,
  options: CodeAgentOptions,
  prepared: PreparedExecution,
  frame: Omit<CodeFrame, 'ctx'>,
  client: ModelClient,
  parent: SpawnParent,
): AgentContext {
  const { runId, execution, services } = prepared;
  const { replay, budget, deadline, callerSignal } = frame;
  return {
    runId,
    execution,
    signal: frame.signal,
    model: client,
    modelName: frame.model,
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
    emit: frame.emitOwn,
    traceCarrier: () => services.traceCarrier?.(execution.executionId),
  };
}
