/**
 * Evals: run an agent over a dataset, score every answer, summarise.
 * Built on the same runs as everything else (`run`), so what is
 * evaluated is exactly what runs in production.
 */
import type { Usage } from '../model/types.js';
import type { RunResult, TerminateReason } from '../contracts/run-result.js';
import type { AgentDefinition } from '../definition/types.js';

/** One dataset row: JSONL `{id, input | inputs, expected?, expected_tool?}` or a recorded trajectory. */
export interface EvalRow {
  id: string;
  /** A single text input: the agent's only input, or its `prompt`. */
  input?: string;
  inputs?: Record<string, unknown>;
  expected?: unknown;
  /** The tool (or tools) the agent should call: the routing test's pass / partial / fail. */
  expected_tool?: string | string[];
  /** `data.jsonl:3`, or the trajectory file. */
  source: string;
}

export type ScoreLabel = 'pass' | 'partial' | 'fail';

/** What a scorer says about one answer. An `error` is never counted as a zero. */
export type ScoreResult =
  | {
      status: 'scored';
      score: number;
      passed: boolean;
      label?: ScoreLabel;
      detail?: string;
      usage?: Usage;
    }
  | { status: 'skipped'; reason: string }
  | { status: 'error'; error: string; usage?: Usage };

export interface ScoreContext {
  row: EvalRow;
  result: RunResult;
  /** The answer as text: a string output, else the final message. */
  answer: string;
  /** Tools the model called, de-duplicated in order of first use (completion tools left out). */
  calledTools: string[];
  definition: AgentDefinition;
}

export interface Scorer {
  readonly name: string;
  /** The row field the scorer needs; rows without it are skipped, not failed. */
  readonly needs?: 'expected' | 'expected_tool';
  score(context: ScoreContext, signal: AbortSignal): Promise<ScoreResult>;
}

export type RowStatus = 'ok' | 'run_error' | 'aborted';

export interface RowResult {
  row_id: string;
  /** 0-based repetition (`--repeat`). */
  repeat: number;
  status: RowStatus;
  attempts: number;
  terminate_reason?: TerminateReason;
  output?: unknown;
  answer?: string;
  called_tools: string[];
  latency_secs: number;
  /** Every attempt's tokens. */
  usage: Usage;
  /** Every attempt's cost in dollars, subagents included, when the model's price is known. */
  cost_usd?: number;
  error?: string;
  scores: Record<string, ScoreResult>;
}

export interface ScorerSummary {
  /** Mean over scored runs; null when none was scored. */
  mean: number | null;
  pass_rate: number | null;
  scored: number;
  passed: number;
  skipped: number;
  errors: number;
}

export interface EvalSummary {
  runs: number;
  completed: number;
  run_errors: number;
  aborted: number;
  not_started: number;
  scorers: Record<string, ScorerSummary>;
  latency: { p50_secs: number | null; p95_secs: number | null };
  tokens: { input: number; output: number; total: number; judge: number };
  /** Dollars the agent's runs and the judges cost, when any price was known. */
  cost_usd?: { runs: number; judge: number; total: number };
}

export interface EvalReport {
  agent: string;
  dataset: string;
  started_at: string;
  duration_secs: number;
  /** Cancelled before every run finished: the summary covers what did. */
  interrupted: boolean;
  summary: EvalSummary;
  results: RowResult[];
}

export interface EvalProgress {
  total: number;
  done: number;
  ok: number;
  failed: number;
}
