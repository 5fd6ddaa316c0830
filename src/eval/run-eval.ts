import type { ModelClient } from '../model/types.js';
import type { ModelResolver } from '../runtime/loop/executor.js';
import type { AgentDefinition } from '../definition/types.js';
import { Semaphore } from '../util/semaphore.js';
import { runRow, type SharedRunOptions } from './run-row.js';
import { summarise } from './summarise.js';
import type { EvalProgress, EvalReport, EvalRow, RowResult, Scorer } from './types.js';

export interface EvalOptions {
  scorers: readonly Scorer[];
  /** Options every run gets: tools, workspace, confirm, runtime, resolveModel… */
  run?: SharedRunOptions;
  /** A fresh client per run; without it `resolverFor` or `run.resolveModel` picks one. */
  model?: (row: EvalRow) => ModelClient;
  /** A fresh resolver per run, shared by that run's subagents. */
  resolverFor?: (row: EvalRow) => ModelResolver;
  /** Runs at once (default 4). */
  concurrency?: number;
  /** Runs per row (default 1). */
  repeat?: number;
  /** Extra attempts for a failed run (default 1). */
  retries?: number;
  signal?: AbortSignal;
  onProgress?: (progress: EvalProgress) => void;
  /** For the report. */
  dataset?: string;
}

/**
 * Runs the agent on every row (`repeat` times), scores each answer and
 * summarises. Cancelling returns a partial report: what finished counts,
 * the rest is reported as aborted or not started.
 */
export async function runEval(
  definition: AgentDefinition,
  rows: readonly EvalRow[],
  options: EvalOptions,
): Promise<EvalReport> {
  const startedAt = new Date();
  const started = performance.now();
  const signal = options.signal ?? new AbortController().signal;
  const repeat = Math.max(1, Math.floor(options.repeat ?? 1));
  const jobs = rows.flatMap((row) =>
    Array.from({ length: repeat }, (_, r) => ({ row, repeat: r })),
  );
  const runner = {
    definition,
    scorers: options.scorers,
    run: options.run ?? {},
    ...(options.model ? { model: options.model } : {}),
    ...(options.resolverFor ? { resolverFor: options.resolverFor } : {}),
    retries: Math.max(0, Math.floor(options.retries ?? 1)),
  };
  const progress: EvalProgress = { total: jobs.length, done: 0, ok: 0, failed: 0 };
  options.onProgress?.({ ...progress });
  const runJob = async (job: (typeof jobs)[number]): Promise<RowResult> => {
    const result = await runRow(runner, job.row, job.repeat, signal);
    if (result.status !== 'aborted') {
      progress.done++;
      if (
        result.status === 'ok' &&
        Object.values(result.scores).every((s) => s.status !== 'scored' || s.passed)
      )
        progress.ok++;
      else progress.failed++;
      options.onProgress?.({ ...progress });
    }
    return result;
  };
  const slots = new Semaphore(Math.max(1, Math.floor(options.concurrency ?? 4) || 1));
  // Once the signal aborts no new row starts (rows already running finish and
  // count). The gate gets no signal: one abort listener per queued row would
  // be thousands; a queued row let in after the abort just ends.
  const results = await Promise.all(
    jobs.map((job) => slots.run(async () => (signal.aborted ? undefined : runJob(job)))),
  );
  return {
    agent: definition.name,
    dataset: options.dataset ?? '(rows)',
    started_at: startedAt.toISOString(),
    duration_secs: (performance.now() - started) / 1000,
    interrupted: signal.aborted,
    summary: summarise(
      results,
      options.scorers.map((s) => s.name),
    ),
    results: results.filter((r): r is RowResult => r !== undefined),
  };
}
