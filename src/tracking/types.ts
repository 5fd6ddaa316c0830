import type { CadreEvent } from '../events/types.js';
import type { RunResult } from '../contracts/run-result.js';

/**
 * Follows one run's event stream for a display (authoring guide 002). Agent
 * agnostic: it needs no event types beyond `final_result`.
 */
export interface ExecutionTracker {
  handleEvent(event: CadreEvent): void;
  /** What to show now; undefined before any event with a message. */
  statusMessage(): string | undefined;
  /** True once the root execution's final_result arrived. */
  isComplete(): boolean;
  /** The root execution's result (children's results never complete a run). */
  finalResult(): RunResult | undefined;
}
