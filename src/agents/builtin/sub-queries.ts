import { TimeoutError } from '../../errors/cadre-error.js';
import type { AgentDefinition } from '../../definition/types.js';
import { Deadline } from '../../runtime/loop/deadline.js';
import type { RunResult } from '../../contracts/run-result.js';
import { Semaphore } from '../../util/semaphore.js';
import { remainingTime } from '../../util/time-budget.js';
import type { AgentContext } from '../../contracts/agent.js';
import { SUB_QUERY_INSTRUCTION, type SubQueryOutcome } from './deep-research-prompts.js';
import { messageOf } from './model-call.js';

export type { SubQueryOutcome };

export interface SubQueryPlan {
  queries: readonly string[];
  maxConcurrent: number;
  /** The whole phase's budget: a sub-query still running (or waiting) when it ends has timed out. */
  budgetMs: number;
  model?: string;
}

const SUB_QUERY_AGENT = 'sub_query';

/**
 * Runs every sub-query as an ephemeral child agent, at most `maxConcurrent`
 * at once, and reports each as it ends. Failures are outcomes, not errors;
 * only cancellation of the run throws, after every child has stopped.
 */
export async function runSubQueries(
  ctx: AgentContext,
  plan: SubQueryPlan,
): Promise<SubQueryOutcome[]> {
  const phaseStart = performance.now();
  const phase = new Deadline(Math.max(0, plan.budgetMs));
  const waiting = AbortSignal.any([ctx.signal, phase.signal]);
  const semaphore = new Semaphore(plan.maxConcurrent);
  const total = plan.queries.length;
  let ended = 0;
  const report = (outcome: SubQueryOutcome): SubQueryOutcome => {
    ended++;
    const { id, query } = outcome;
    ctx.emit(
      outcome.status === 'completed'
        ? {
            type: 'sub_query_completed',
            message: `Sub-query ${ended}/${total} completed`,
            data: { ...outcome },
          }
        : {
            type: 'sub_query_failed',
            message: `Sub-query ${ended}/${total} failed: ${outcome.error}`,
            data: { id, query, error: outcome.error, timed_out: outcome.timed_out },
          },
    );
    return outcome;
  };
  const failed = (id: number, query: string, error: unknown): SubQueryOutcome => {
    if (ctx.signal.aborted) throw error;
    const timedOut = phase.expired || error instanceof TimeoutError;
    const reason = timedOut ? 'timed out' : messageOf(error);
    return report({ id, query, status: 'failed', error: reason, timed_out: timedOut });
  };
  // Outcomes are reported while the slot is held, so the event stream shows the real concurrency.
  const runOne = (query: string, id: number): Promise<SubQueryOutcome> =>
    semaphore
      .run(async () => {
        try {
          // Queued sub-queries start with what is left of the phase, or not at all.
          remainingTime(phaseStart, plan.budgetMs, `sub-query ${id + 1}`);
          ctx.emit({
            type: 'sub_query_started',
            message: `Researching: ${query}`,
            data: { id, query },
          });
          const result = await ctx.spawn({
            target: { kind: 'definition', definition: subQueryAgent(plan.model) },
            ephemeral: true,
            inputs: { prompt: query },
            allowNested: false,
            // Children already stop on the caller's cancellation; this adds the phase's end.
            signal: waiting,
          });
          ctx.signal.throwIfAborted();
          return report(outcomeOf(id, query, result, phase.expired));
        } catch (error) {
          return failed(id, query, error);
        }
      }, waiting)
      .catch((error: unknown) => failed(id, query, error));
  try {
    // allSettled, not all: on cancellation every child must have stopped before the run ends.
    const settled = await Promise.allSettled(plan.queries.map(runOne));
    ctx.signal.throwIfAborted();
    return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  } finally {
    phase.dispose();
  }
}

function outcomeOf(
  id: number,
  query: string,
  result: RunResult,
  phaseOver: boolean,
): SubQueryOutcome {
  if (result.terminate_reason === 'GOAL') {
    return {
      id,
      query,
      status: 'completed',
      answer: result.content,
      ...(result.recovered_from ? { recovered_from: result.recovered_from } : {}),
    };
  }
  const timedOut =
    result.terminate_reason === 'TIMEOUT' || (result.terminate_reason === 'ABORTED' && phaseOver);
  const error = timedOut ? 'timed out' : (result.error?.message ?? result.content);
  return { id, query, status: 'failed', error, timed_out: timedOut };
}

function subQueryAgent(model: string | undefined): AgentDefinition {
  return {
    name: SUB_QUERY_AGENT,
    description: 'Researches one sub-query of a deep_research run.',
    promptConfig: { systemPrompt: SUB_QUERY_INSTRUCTION },
    ...(model ? { modelConfig: { model } } : {}),
    toolConfig: { tools: [] },
  };
}
