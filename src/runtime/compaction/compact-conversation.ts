import { isAbortError } from '../../errors/cadre-error.js';
import { addUsage, type Message, type ModelRequest } from '../../model/types.js';
import { costSpent } from '../loop/cost-ceiling.js';
import type { LoopContext } from '../loop/loop-context.js';
import { runModelTurn } from '../loop/model-turn.js';
import { holdForCall } from '../loop/budgeted-call.js';
import { planCompaction, type CompactionPlan } from './plan-compaction.js';
import { effectiveWindow } from './measure-request.js';
import { charsForTokens, estimateTokensOf } from '../../cost/call-estimate.js';
import { foldedConversation, latestRequest, transcript } from './split-conversation.js';

/** What the summariser is told; Cadre's own words, never templated. */
export const SUMMARY_INSTRUCTION = [
  'You compress the earlier part of a conversation between a user and an assistant that uses tools, so the assistant can carry on without it.',
  'Write a compact note: the goal, every fact, name, number, date, decision and preference stated, what tools returned that still matters, what is done and what is left.',
  'Keep exact values (ids, paths, amounts). Write plain text, no preamble; never invent anything.',
].join('\n');

/**
 * Folds earlier turns into a note written by the run's own model (one call
 * through the run's client, so it is priced, counted, recorded and replayed
 * like any other) when the last call's reported input nears the model's
 * context window, or a thread's opening history outgrows its window. The
 * newest turns stay verbatim and a call is never parted from its answer.
 * A failed summary is a warning: the run goes on uncompacted.
 */
export async function compactConversation(
  ctx: LoopContext,
  signal: AbortSignal,
  /** Where to cut, when the caller measured it (fit-window.ts); else the count and usage triggers. */
  planned?: CompactionPlan,
): Promise<boolean> {
  const settings = ctx.compaction;
  if (!settings) return false;
  const plan = planned ?? planCompaction(ctx, settings);
  if (!plan || costSpent(ctx)) return false;
  const { state, emit } = ctx;
  const head = state.messages.slice(0, plan.cut);
  const window = effectiveWindow(ctx);
  const request: ModelRequest = {
    model: state.model,
    systemInstruction: SUMMARY_INSTRUCTION,
    messages: [
      {
        role: 'user',
        parts: [
          {
            kind: 'text',
            text: `The conversation so far:\n\n${transcript(head, settings.maxToolResultChars, window === undefined ? Infinity : summaryChars(ctx, window, settings.threshold))}\n\nWrite the note.`,
          },
        ],
      },
    ],
    tools: [],
    config: {},
  };
  // Held like any call: a summary that would not fit the budget is not asked for.
  const held = holdForCall(ctx.budget, request, ctx.prices);
  if (held.kind === 'refused') return false;
  let turn;
  try {
    // Only retries are told: the summary's text is not the agent speaking.
    turn = await runModelTurn(ctx.client, held.request, signal, (event) => {
      if (event.type === 'model_retry') emit(event);
    });
  } catch (error) {
    held.settle(undefined);
    if (isAbortError(error) || signal.aborted) throw error;
    warn(ctx, `Earlier conversation could not be summarised: ${messageOf(error)}`);
    return false;
  }
  const summaryUsage = held.settle(turn.usage);
  if (summaryUsage) {
    state.usage = addUsage(state.usage, summaryUsage);
    emit({
      type: 'usage',
      message: `${summaryUsage.totalTokens} tokens (summary)`,
      data: { ...summaryUsage, purpose: 'compaction' },
    });
  }
  if (!turn.text.trim()) {
    warn(ctx, 'Earlier conversation could not be summarised: the model wrote no summary');
    return false;
  }
  const before = state.messages;
  const after = foldedConversation(
    before,
    plan.cut,
    turn.text,
    plan.scope === 'run' ? latestRequest(head) : undefined,
  );
  state.messages = after;
  const tokensBefore = state.contextTokens;
  // Known again from the next call's usage; until then nothing triggers another fold.
  delete state.contextTokens;
  delete ctx.measured;
  emit({
    type: 'context_compacted',
    message: 'Earlier conversation summarised',
    data: {
      scope: plan.scope,
      foldedMessages: plan.cut,
      messagesBefore: before.length,
      messagesAfter: after.length,
      ...(tokensBefore !== undefined
        ? { tokensBefore, tokensAfter: estimateTokens(tokensBefore, before, after) }
        : {}),
      ...(settings.contextWindow !== undefined ? { contextWindow: settings.contextWindow } : {}),
      ...(summaryUsage ? { summaryUsage } : {}),
      summary: turn.text,
    },
  });
  return true;
}

/**
 * Characters of transcript the summary request may carry so it fits the
 * window itself: the trigger's share of it, less the instruction, at the
 * calibrated estimate (with a tenth to spare for JSON escaping).
 */
function summaryChars(ctx: LoopContext, window: number, threshold: number): number {
  const room = threshold * window - estimateTokensOf(SUMMARY_INSTRUCTION) - 64;
  return Math.max(2_000, Math.floor(charsForTokens(room / ctx.budget.inputScale()) * 0.9));
}

/** The reported size scaled by how much shorter the conversation became. */
function estimateTokens(reported: number, before: readonly Message[], after: readonly Message[]) {
  const size = (messages: readonly Message[]): number => JSON.stringify(messages).length;
  return Math.round((reported * size(after)) / Math.max(1, size(before)));
}

const warn = (ctx: LoopContext, message: string): void =>
  ctx.emit({ type: 'warning', message, data: { context: 'compaction' } });

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
