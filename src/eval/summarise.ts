import type { EvalSummary, RowResult, ScorerSummary } from './types.js';

/**
 * Per-scorer mean and pass rate over scored runs (skipped and errored
 * scores are counted, never averaged in), latency percentiles over finished
 * runs, tokens of the agent and of judges.
 */
export function summarise(
  results: readonly (RowResult | undefined)[],
  scorerNames: readonly string[],
): EvalSummary {
  const done = results.filter((r): r is RowResult => r !== undefined);
  const finished = done.filter((r) => r.status !== 'aborted');
  const scorers: Record<string, ScorerSummary> = {};
  for (const name of scorerNames) {
    const all = finished.map((r) => r.scores[name]);
    const values = all.flatMap((s) => (s?.status === 'scored' ? [s] : []));
    scorers[name] = {
      mean: values.length ? values.reduce((sum, s) => sum + s.score, 0) / values.length : null,
      pass_rate: values.length ? values.filter((s) => s.passed).length / values.length : null,
      scored: values.length,
      passed: values.filter((s) => s.passed).length,
      skipped: all.filter((s) => s?.status === 'skipped').length,
      errors: all.filter((s) => s?.status === 'error').length,
    };
  }
  const latencies = finished
    .filter((r) => r.terminate_reason !== undefined)
    .map((r) => r.latency_secs);
  const judgeTokens = finished
    .flatMap((r) => Object.values(r.scores))
    .reduce((sum, s) => sum + (s.status !== 'skipped' && s.usage ? s.usage.totalTokens : 0), 0);
  const runCosts = finished.flatMap((r) => (r.cost_usd === undefined ? [] : [r.cost_usd]));
  const judgeCosts = finished
    .flatMap((r) => Object.values(r.scores))
    .flatMap((s) =>
      s.status !== 'skipped' && s.usage?.costUsd !== undefined ? [s.usage.costUsd] : [],
    );
  const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
  return {
    runs: results.length,
    completed: finished.length,
    run_errors: finished.filter((r) => r.status === 'run_error').length,
    aborted: done.length - finished.length,
    not_started: results.length - done.length,
    scorers,
    latency: { p50_secs: percentile(latencies, 50), p95_secs: percentile(latencies, 95) },
    tokens: {
      input: finished.reduce((sum, r) => sum + r.usage.inputTokens, 0),
      output: finished.reduce((sum, r) => sum + r.usage.outputTokens, 0),
      total: finished.reduce((sum, r) => sum + r.usage.totalTokens, 0),
      judge: judgeTokens,
    },
    ...(runCosts.length + judgeCosts.length > 0
      ? {
          cost_usd: {
            runs: sum(runCosts),
            judge: sum(judgeCosts),
            total: sum(runCosts) + sum(judgeCosts),
          },
        }
      : {}),
  };
}

/** Nearest-rank percentile; null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    null
  );
}

/** Scorers whose mean is below `min` (or that scored nothing): what fails a `--min-score` gate. */
export function belowMinimum(summary: EvalSummary, min: number): string[] {
  return Object.entries(summary.scorers)
    .filter(([, s]) => s.mean === null || s.mean < min)
    .map(([name]) => name);
}
