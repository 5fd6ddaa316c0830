import type { LoopContext } from './loop-context.js';
import { runCostUsd } from './run-cost.js';

/**
 * Whether the run has spent its `max_cost_usd` (finished subagents
 * included). Once it has, no model call starts: not the next turn, not a
 * grace turn, not a new subagent. A limit is a ceiling, not a signal to
 * spend one more call explaining.
 */
export function costSpent(ctx: Pick<LoopContext, 'maxCostUsd' | 'state'>): boolean {
  return ctx.maxCostUsd !== undefined && runCostUsd(ctx.state) >= ctx.maxCostUsd;
}
