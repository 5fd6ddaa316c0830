export type { ExecutionTracker } from './types.js';
export { DefaultTracker } from './default-tracker.js';
export {
  ExecutionState,
  type ExecutionRecord,
  type ExecutionStateOptions,
  type ExecutionStatus,
} from './execution-state.js';
export {
  DEEP_RESEARCH_PHASES,
  DEFAULT_PHASE_TABLES,
  LOOP_PHASES,
  nextPhase,
  PHASES,
  REACT_PHASES,
  type Phase,
  type PhaseTable,
  type WellKnownPhase,
} from './phases.js';
export { RunMetrics } from './run-metrics.js';
export { executionSpans, parallelSpeedup, type ExecutionSpan } from './execution-spans.js';
