import type { RunState } from '../../contracts/run-state.js';
import type { ResumeDecision } from '../../contracts/confirmation.js';
import type { ExecutionOptions } from './run-options.js';

export type CodeAgentOptions = Omit<ExecutionOptions, 'inputs' | 'onStateChange'> & {
  modelName?: string;
  /** The definition's `max_cost_usd` (a router or workflow), nested in its tree's budget. */
  maxCostUsd?: number;
  /** A child's pause below this agent pauses the run (see code-replay). */
  canPause?: boolean;
  /** Go on from a pause: the stored run and the people's decisions. */
  resume?: { state: RunState; decisions: Readonly<Record<string, ResumeDecision>> };
};
