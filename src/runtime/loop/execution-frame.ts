import type { RunResult } from '../../contracts/run-result.js';
import type { EventSink } from '../../events/types.js';
import { Semaphore } from '../../util/semaphore.js';
import type { SpawnParent } from '../subagents/spawn-child.js';
import type { Deadline } from './deadline.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import type { PreparedExecution } from './prepare-execution.js';

/**
 * What every execution, declarative or code, shares: how its children see it,
 * how it ends (one final_result) and, at the root, closing the tree's servers.
 * Its time budget is `Deadline.forExecution`.
 */

/** The execution as its subagents see it; the per-parent limit is created on the first spawn. */
export function spawnParentOf(
  prepared: PreparedExecution,
  deadline: Deadline,
  tools: Pick<SpawnParent, 'grantedNames' | 'toolPatterns' | 'mcpServers'>,
  childFinished: (result: RunResult) => void,
  budget?: CostBudget,
): SpawnParent {
  let perParent: Semaphore | undefined;
  return {
    runId: prepared.runId,
    execution: prepared.execution,
    ...tools,
    remainingMs: () => deadline.remaining(),
    perParent: () => (perParent ??= new Semaphore(prepared.services.perParentLimit)),
    emit: prepared.emit,
    childFinished,
    ...(budget ? { budget } : {}),
  };
}

/** Every execution that starts ends with exactly one final_result event carrying its result. */
export function announceResult(emit: EventSink, result: RunResult): void {
  const recovered = result.recovered_from ? ` (recovered from ${result.recovered_from})` : '';
  emit({
    type: 'final_result',
    message: `${result.terminate_reason}${recovered}`,
    data: { result },
  });
}

/** The root of a run tree stops the servers the tree started, however the run ends or pauses. */
export async function closingServers<T>(
  prepared: PreparedExecution,
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } finally {
    const closing = closeServers(prepared);
    if (closing) await closing;
  }
}

/** Stops the tree's servers when this execution is its root; undefined when there is nothing to wait for. */
export function closeServers(prepared: PreparedExecution): Promise<void> | undefined {
  return prepared.root ? prepared.services.mcp.close() : undefined;
}
