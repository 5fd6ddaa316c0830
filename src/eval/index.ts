/**
 * Evals on the same runs as everything else: datasets (JSONL rows or a
 * folder of trajectories), async scorers, bounded concurrency, retries,
 * a summary that can gate CI.
 */
export type * from './types.js';
export { runEval, type EvalOptions } from './run-eval.js';
export { runRow, type RowRunner, type SharedRunOptions } from './run-row.js';
export { loadDataset, type Dataset, type DatasetKind } from './load-dataset.js';
export { loadJsonlDataset } from './jsonl-dataset.js';
export { loadTrajectoryDataset, type TrajectoryDataset } from './trajectory-dataset.js';
export { summarise, belowMinimum, percentile } from './summarise.js';
export { formatSummary } from './format-summary.js';
export { createProgressBar } from './progress-bar.js';
export { rowInputs, rowTask } from './row-inputs.js';
export { answerText, calledTools, normaliseText } from './answer-text.js';
export {
  buildScorers,
  defaultScorers,
  parseScorerSpecs,
  SCORER_NAMES,
  type ScorerDeps,
  type ScorerName,
  type ScorerSpec,
} from './scorer-specs.js';
export { exactScorer } from './scorers/exact.js';
export { containsScorer } from './scorers/contains.js';
export { regexScorer } from './scorers/regex.js';
export { jsonSchemaScorer } from './scorers/json-schema.js';
export { toolCalledScorer, routing } from './scorers/tool-called.js';
export { llmJudgeScorer, type JudgeOptions, type Verdict } from './scorers/llm-judge.js';
export { defaultJudgeFile, loadJudgeDefinition, JUDGE_FILE } from './scorers/judge-definition.js';
