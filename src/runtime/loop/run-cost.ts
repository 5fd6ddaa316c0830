import type { RunState } from '../../contracts/run-state.js';

/** The run's own model calls plus every finished subagent, in dollars (unknown prices count 0). */
export function runCostUsd(state: Pick<RunState, 'usage' | 'subagentCosts'>): number {
  return (
    (state.usage.costUsd ?? 0) +
    (state.subagentCosts ?? []).reduce((sum, child) => sum + child.cost_usd, 0)
  );
}
