import { isAbortError } from '../errors/cadre-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { CadreEvent } from '../events/types.js';
import { addUsage, emptyUsage, type ModelClient } from '../model/types.js';
import { type ModelResolver, type RunOptions } from '../runtime/loop/executor.js';
import { run } from '../agents/run-verbs.js';
import type { RunResult } from '../contracts/run-result.js';
import type { AgentDefinition } from '../definition/types.js';
import { answerText, calledTools } from './answer-text.js';
import { rowInputs } from './row-inputs.js';
import type { EvalRow, RowResult, Scorer, ScoreResult } from './types.js';

/** Options every row's run shares; inputs, signal, events and the model are per run. */
export type SharedRunOptions = Omit<
  RunOptions,
  'inputs' | 'signal' | 'onEvent' | 'model' | 'runId'
>;

export interface RowRunner {
  definition: AgentDefinition;
  scorers: readonly Scorer[];
  run: SharedRunOptions;
  /** A fresh client per run (a scripted model starts over for each row). */
  model?: (row: EvalRow) => ModelClient;
  /** Or a fresh resolver per run, shared by the run's subagents (as `cadre run` does). */
  resolverFor?: (row: EvalRow) => ModelResolver;
  /** Extra attempts for a run that fails (ERROR or a thrown error); invalid inputs are not retried. */
  retries: number;
}

/** One run of one row: the agent (retried on errors), then every scorer. */
export async function runRow(
  runner: RowRunner,
  row: EvalRow,
  repeat: number,
  signal: AbortSignal,
): Promise<RowResult> {
  const base: RowResult = {
    row_id: row.id,
    repeat,
    status: 'run_error',
    attempts: 0,
    called_tools: [],
    latency_secs: 0,
    usage: emptyUsage(),
    scores: {},
  };
  let result: RunResult | undefined;
  let events: CadreEvent[] = [];
  try {
    const inputs = rowInputs(runner.definition, row);
    for (let attempt = 1; attempt <= runner.retries + 1; attempt++) {
      base.attempts = attempt;
      events = [];
      try {
        result = await run(runner.definition, {
          ...runner.run,
          inputs,
          signal,
          onEvent: (e) => events.push(e),
          ...(runner.model ? { model: runner.model(row) } : {}),
          ...(runner.resolverFor ? { resolveModel: runner.resolverFor(row) } : {}),
        });
        base.usage = addUsage(base.usage, result.usage);
        const cost = result.cost_usd ?? result.usage.costUsd;
        if (cost !== undefined) base.cost_usd = (base.cost_usd ?? 0) + cost;
        base.error = result.error?.message;
      } catch (error) {
        if (error instanceof ValidationError || isAbortError(error)) throw error;
        base.error = (error as Error).message;
        result = undefined;
      }
      if (signal.aborted || result?.terminate_reason === 'GOAL') break;
      if (result && result.terminate_reason !== 'ERROR') break; // limits are not flaky: no retry
    }
  } catch (error) {
    base.error = (error as Error).message;
  }
  if (signal.aborted || result?.terminate_reason === 'ABORTED')
    return { ...base, status: 'aborted' };
  const answer = result ? answerText(result) : undefined;
  const outcome: RowResult = {
    ...base,
    called_tools: calledTools(events),
    ...(result
      ? {
          terminate_reason: result.terminate_reason,
          output: result.output,
          answer,
          latency_secs: result.response_time_secs,
        }
      : {}),
  };
  if (!result || result.terminate_reason !== 'GOAL') {
    const why = `the run failed: ${result ? `${result.terminate_reason}: ` : ''}${base.error ?? result?.final_message ?? 'no result'}`;
    outcome.scores = Object.fromEntries(
      runner.scorers.map((s) => [s.name, skipOr(s, row) ?? failed(why)]),
    );
    return { ...outcome, status: 'run_error', error: why };
  }
  const context = {
    row,
    result,
    answer: answer ?? '',
    calledTools: outcome.called_tools,
    definition: runner.definition,
  };
  const scores = await Promise.all(
    runner.scorers.map(async (scorer): Promise<[string, ScoreResult]> => {
      const skipped = skipOr(scorer, row);
      if (skipped) return [scorer.name, skipped];
      try {
        return [scorer.name, await scorer.score(context, signal)];
      } catch (error) {
        return [scorer.name, { status: 'error', error: (error as Error).message }];
      }
    }),
  );
  outcome.scores = Object.fromEntries(scores);
  return { ...outcome, status: signal.aborted ? 'aborted' : 'ok' };
}

function skipOr(scorer: Scorer, row: EvalRow): ScoreResult | undefined {
  if (scorer.needs && row[scorer.needs] === undefined)
    return { status: 'skipped', reason: `the row has no ${scorer.needs}` };
  return undefined;
}

/** An agent that failed to answer fails every applicable scorer (unlike a judge failure). */
function failed(why: string): ScoreResult {
  return { status: 'scored', score: 0, passed: false, label: 'fail', detail: why };
}
