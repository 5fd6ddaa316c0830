import { TimeoutError } from '../../errors/cadre-error.js';
import type { AgentEventInput } from '../../events/types.js';
import { remainingTime } from '../../util/time-budget.js';
import type { Agent, AgentContext, AgentInput } from '../../contracts/agent.js';
import {
  DEEP_RESEARCH_DESCRIPTION,
  DEEP_RESEARCH_NAME,
  deepResearchConfig,
  type DeepResearchConfig,
  type DeepResearchOptions,
  type PhaseBudgets,
} from './deep-research-config.js';
import {
  decompositionInstruction,
  findingsDigest,
  SYNTHESIS_INSTRUCTION,
  synthesisInput,
} from './deep-research-prompts.js';
import { parseSubQueries } from './json-in-text.js';
import { messageOf, modelCall, userText } from './model-call.js';
import { runSubQueries, type SubQueryOutcome } from './sub-queries.js';

export { DEEP_RESEARCH_DESCRIPTION, DEEP_RESEARCH_NAME };

/** What the agent knows about the clock of one run. */
interface Budget {
  /** How long a phase may take: its share, capped by what is left of the whole. 0 = no time left. */
  phaseMs(phase: keyof PhaseBudgets): number;
}

/**
 * decompose (one model call) → sub-queries in parallel as child agents
 * (bounded) → synthesize (one model call). Each phase has its own budget.
 */
export class DeepResearchAgent implements Agent {
  readonly name = DEEP_RESEARCH_NAME;
  readonly description = DEEP_RESEARCH_DESCRIPTION;
  private readonly config: DeepResearchConfig;

  constructor(options: DeepResearchOptions = {}) {
    this.config = deepResearchConfig(options);
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    const budget = this.budget(ctx);
    const question = input.prompt;
    yield {
      type: 'decomposition_started',
      message: `Planning research: ${question}`,
      data: { query: question },
    };
    const plan = yield* this.decompose(question, ctx, budget.phaseMs('decomposition'));
    const count = plan.queries.length;
    yield {
      type: 'decomposition_complete',
      message: `Planned ${count} sub-quer${count === 1 ? 'y' : 'ies'}`,
      data: { sub_queries: plan.queries, ...(plan.fallback ? { fallback: plan.fallback } : {}) },
    };
    const outcomes = await runSubQueries(ctx, {
      queries: plan.queries,
      maxConcurrent: this.config.maxConcurrent,
      budgetMs: budget.phaseMs('subQueries'),
      ...(this.config.models?.subQueries ? { model: this.config.models.subQueries } : {}),
    });
    const output = { sub_queries: plan.queries, answers: outcomes };
    const succeeded = outcomes.filter((o) => o.status === 'completed').length;
    if (succeeded === 0) {
      yield {
        type: 'final_result',
        message: 'Research failed',
        data: {
          content: `I could not research this: all ${count} sub-quer${count === 1 ? 'y' : 'ies'} failed.\n${findingsDigest(outcomes)}`,
          output,
        },
      };
      return;
    }
    yield {
      type: 'synthesis_started',
      message: `Synthesizing ${succeeded} of ${count} findings`,
      data: { succeeded, failed: count - succeeded },
    };
    const synthesis = yield* this.synthesize(question, outcomes, ctx, budget.phaseMs('synthesis'));
    yield {
      type: 'final_result',
      message: 'Research complete',
      data: {
        content: synthesis.content,
        output: synthesis.error ? { ...output, synthesis_error: synthesis.error } : output,
      },
    };
  }

  private budget(ctx: AgentContext): Budget {
    const start = performance.now();
    const totalMs = Math.min(this.config.totalTimeoutMs, ctx.remainingMs());
    return {
      phaseMs: (phase) => {
        try {
          const left = remainingTime(start, totalMs, phase);
          // Synthesis gets everything left: the earlier phases' caps already reserved its share.
          return phase === 'synthesis'
            ? left
            : Math.min(left, this.config.phaseBudgets[phase] * totalMs);
        } catch (error) {
          if (error instanceof TimeoutError) return 0;
          throw error;
        }
      },
    };
  }

  /** The question itself is the fallback plan: a failed decomposition still gets researched. */
  private async *decompose(
    question: string,
    ctx: AgentContext,
    timeoutMs: number,
  ): AsyncGenerator<AgentEventInput, { queries: string[]; fallback?: string }> {
    if (timeoutMs <= 0) return { queries: [question], fallback: 'no time left to decompose' };
    try {
      const reply = yield* modelCall(
        ctx,
        {
          model: this.config.models?.decomposition ?? ctx.modelName,
          systemInstruction: decompositionInstruction(this.config.maxSubQueries),
          messages: [userText(question)],
          tools: [],
          config: {},
        },
        {
          label: 'Planning sub-queries',
          data: { phase: 'decomposition' },
          timeoutMs,
          onTimeout: timedOut('decomposition', timeoutMs),
        },
      );
      const queries = parseSubQueries(reply.text, this.config.maxSubQueries);
      return queries.length > 0
        ? { queries }
        : { queries: [question], fallback: 'no sub-queries in the reply' };
    } catch (error) {
      ctx.signal.throwIfAborted();
      return { queries: [question], fallback: `decomposition failed: ${messageOf(error)}` };
    }
  }

  /** A failed synthesis still returns the findings, and says so. */
  private async *synthesize(
    question: string,
    outcomes: readonly SubQueryOutcome[],
    ctx: AgentContext,
    timeoutMs: number,
  ): AsyncGenerator<AgentEventInput, { content: string; error?: string }> {
    let error = 'no time left to synthesize';
    if (timeoutMs > 0) {
      try {
        const reply = yield* modelCall(
          ctx,
          {
            model: this.config.models?.synthesis ?? ctx.modelName,
            systemInstruction: SYNTHESIS_INSTRUCTION,
            messages: [userText(synthesisInput(question, outcomes))],
            tools: [],
            config: {},
          },
          {
            label: 'Synthesizing the answer',
            data: { phase: 'synthesis' },
            timeoutMs,
            onTimeout: timedOut('synthesis', timeoutMs),
          },
        );
        if (reply.text.trim()) return { content: reply.text };
        error = 'the model returned no text';
      } catch (cause) {
        ctx.signal.throwIfAborted();
        error = messageOf(cause);
      }
    }
    return {
      content: `Synthesis failed (${error}). Findings:\n${findingsDigest(outcomes)}`,
      error,
    };
  }
}

const timedOut = (phase: string, ms: number) => (): Error =>
  new TimeoutError(`${phase} timed out after ${Math.round(ms)} ms`);
