import { CostBudget } from '../../cost/cost-budget.js';
import { estimateInputTokens, worstCaseUsd } from '../../cost/call-estimate.js';
import { priceFor } from '../../cost/prices.js';
import type { RunState } from '../../contracts/run-state.js';
import type { ToolDeclaration } from '../../model/types.js';
import type { LoopContext } from './loop-context.js';
import { storedSpendUsd } from './run-cost.js';

/**
 * Whether the run's budget, or its tree's, is spent (finished and running
 * subagents included). Once it is, no model call starts: not the next turn,
 * not a grace turn, not a new subagent. A limit is a ceiling, not a signal
 * to spend one more call explaining.
 */
export function costSpent(ctx: Pick<LoopContext, 'budget'>): boolean {
  return ctx.budget.exhausted() !== undefined;
}

/** Whether a turn offering `declarations` would be allowed to start now (its worst case fits). */
export function turnFits(
  ctx: Pick<LoopContext, 'budget' | 'state' | 'generation' | 'prices'>,
  declarations: readonly ToolDeclaration[],
): boolean {
  const { state, budget } = ctx;
  const price = priceFor(state.model, ctx.prices);
  if (!price || !budget.bounded()) return budget.exhausted() === undefined;
  const request = {
    model: state.model,
    ...(state.systemInstruction ? { systemInstruction: state.systemInstruction } : {}),
    messages: state.messages,
    tools: declarations,
    config: ctx.generation,
  };
  const inputTokens = estimateInputTokens(request) * budget.inputScale();
  return budget.wouldRefuse(worstCaseUsd(request, price, inputTokens)) === undefined;
}

/**
 * One execution's budget: its own `max_cost_usd` under its parent's budget
 * (a child), or the tree's (the root). It keeps the state's `costSpentUsd`
 * current, so a paused run carries what its tree spent.
 */
export function executionBudget(
  limitUsd: number | undefined,
  parent: CostBudget | undefined,
  state: RunState,
): CostBudget {
  return CostBudget.open({
    limitUsd,
    parent,
    spentUsd: storedSpendUsd(state),
    onSpent: (usd) => {
      state.costSpentUsd = usd;
    },
  });
}

/** The cap a run that ended MAX_COST ran into: the tightest one over it. */
export function costLimitOf(ctx: Pick<LoopContext, 'budget' | 'maxCostUsd'>): number {
  return ctx.budget.tightestLimit() ?? ctx.maxCostUsd ?? 0;
}
