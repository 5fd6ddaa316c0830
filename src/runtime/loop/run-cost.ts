import type { RunState } from '../../contracts/run-state.js';

/** The run's own model calls plus every finished subagent, in dollars (unknown prices count 0). */
export function runCostUsd(state: Pick<RunState, 'usage' | 'subagentCosts'>): number {
  return (
    (state.usage.costUsd ?? 0) +
    (state.subagentCosts ?? []).reduce((sum, child) => sum + child.cost_usd, 0)
  );
}

/**
 * What a stored execution and its subtree had spent when it paused: the
 * amount its budget kept, else (a state stored before that was kept) its
 * cost plus what its paused subagents had spent.
 */
export function storedSpendUsd(state: RunState): number {
  if (state.costSpentUsd !== undefined) return state.costSpentUsd;
  const paused = [
    ...Object.values(state.pendingTurn?.children ?? {}),
    ...Object.values(state.code?.spawns ?? {}).flatMap((s) => ('child' in s ? [s.child] : [])),
  ];
  return paused.reduce((sum, child) => sum + storedSpendUsd(child.state), runCostUsd(state));
}
