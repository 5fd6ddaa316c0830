import type { CadreEvent } from '../events/types.js';
import type { RunResult } from '../contracts/run-result.js';

/** True for the final_result of the tree's root (depth 0), the only one that ends a run. */
export function isRootFinalResult(event: CadreEvent): boolean {
  return event.type === 'final_result' && event.depth === 0;
}

/** The RunResult a runner puts in `final_result.data.result`, if the payload looks like one. */
export function resultOf(event: CadreEvent): RunResult | undefined {
  if (event.type !== 'final_result') return undefined;
  const value = event.data.result;
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<RunResult>;
  return typeof candidate.terminate_reason === 'string' && typeof candidate.content === 'string'
    ? (value as RunResult)
    : undefined;
}
