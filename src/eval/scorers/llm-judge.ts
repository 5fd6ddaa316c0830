import type { ModelClient } from '../../model/types.js';
import { type ModelResolver } from '../../runtime/loop/executor.js';
import { run } from '../../agents/run-verbs.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { Runtime } from '../../runtime/loop/runtime.js';
import type { AgentDefinition } from '../../definition/types.js';
import { expectedText } from '../answer-text.js';
import { rowTask } from '../row-inputs.js';
import type { ScoreLabel, Scorer, ScoreResult } from '../types.js';

export type Verdict = 'PASS' | 'PARTIAL' | 'FAIL';

const VERDICTS: Record<Verdict, { score: number; label: ScoreLabel }> = {
  PASS: { score: 1, label: 'pass' },
  PARTIAL: { score: 0.5, label: 'partial' },
  FAIL: { score: 0, label: 'fail' },
};

export interface JudgeOptions {
  /** The judge agent (examples/agents/judge.yaml): inputs task, expected, answer, tools; output {verdict, reason}. */
  definition: AgentDefinition;
  /** A fresh client per judgement, so a scripted judge starts over each time. */
  model?: () => ModelClient;
  resolveModel?: ModelResolver;
  defaultModel?: string;
  runtime?: Runtime;
}

/**
 * Another agent grades the answer through the same executor. When the
 * judge itself fails (no model, a bad verdict, a timeout) the score is an
 * error, reported as such and left out of the means: never a silent zero.
 */
export function llmJudgeScorer(options: JudgeOptions): Scorer {
  return {
    name: 'llm_judge',
    score: async ({ row, answer, calledTools }, signal) => {
      let result: RunResult;
      try {
        result = await run(options.definition, {
          inputs: {
            task: rowTask(row),
            expected:
              row.expected === undefined
                ? '(none given: judge the answer on its own merits)'
                : expectedText(row.expected),
            answer,
            tools: calledTools.join(', ') || '(none)',
          },
          ...(options.model ? { model: options.model() } : {}),
          ...(options.resolveModel ? { resolveModel: options.resolveModel } : {}),
          ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
          ...(options.runtime ? { runtime: options.runtime } : {}),
          signal,
        });
      } catch (error) {
        return { status: 'error', error: `judge could not run: ${(error as Error).message}` };
      }
      return judgement(result);
    },
  };
}

function judgement(result: RunResult): ScoreResult {
  const usage = result.usage;
  if (result.terminate_reason !== 'GOAL') {
    return {
      status: 'error',
      error: `judge ${result.terminate_reason}: ${result.error?.message ?? result.final_message}`,
      usage,
    };
  }
  const output = result.output as { verdict?: unknown; reason?: unknown } | null;
  const verdict = typeof output?.verdict === 'string' ? output.verdict.toUpperCase() : undefined;
  const mapped =
    verdict && Object.hasOwn(VERDICTS, verdict) ? VERDICTS[verdict as Verdict] : undefined;
  if (!mapped)
    return {
      status: 'error',
      error: `judge gave no verdict PASS / PARTIAL / FAIL (got ${JSON.stringify(result.output)})`,
      usage,
    };
  const reason = typeof output?.reason === 'string' ? output.reason : undefined;
  return {
    status: 'scored',
    score: mapped.score,
    passed: mapped.label === 'pass',
    label: mapped.label,
    ...(reason ? { detail: reason } : {}),
    usage,
  };
}
