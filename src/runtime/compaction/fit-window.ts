import { estimateTokensOf, charsForTokens } from '../../cost/call-estimate.js';
import type { Message, ModelRequest, ToolDeclaration } from '../../model/types.js';
import type { LoopContext } from '../loop/loop-context.js';
import { effectiveWindow, measure, sizesOf, type Sized } from './measure-request.js';
import {
  isSafeCut,
  planCompaction,
  safeCutAtOrBefore,
  turnCut,
  type CompactionPlan,
} from './plan-compaction.js';
import { foldedConversation, latestRequest } from './split-conversation.js';
import { trimLargestResults } from './trim-results.js';

/**
 * What a fold keeps of the window for the newest turns: about half, so the
 * run grows a while before the next fold instead of folding on every turn.
 */
const KEPT_SHARE = 0.5;
/** What the summary note may take of the window, at most (it replaces the folded turns). */
const NOTE_SHARE = 0.1;
const NOTE_MAX_TOKENS = 1_500;

/** The request to send and its measured size, or a request that cannot be made to fit. */
export type Fit =
  | { kind: 'fits'; request: ModelRequest; estimated: number; tokens: number; window?: number }
  | { kind: 'too_big'; tokens: number; window: number };

/**
 * Measures the next request before it is sent and makes it fit: once it
 * passes the threshold, a newest tool result too large to fit even alone is
 * trimmed (head and tail kept, a marker between), then earlier turns are
 * summarised, keeping as many of the newest turns as fit. Should it still not
 * fit the window, the largest results are trimmed and, last, the oldest turns
 * left out with a note saying so. A request is never sent over the window.
 */
export async function fitWindow(
  ctx: LoopContext,
  declarations: readonly ToolDeclaration[],
  signal: AbortSignal,
): Promise<Fit> {
  const settings = ctx.compaction;
  const { state } = ctx;
  const window = effectiveWindow(ctx);
  const legacy = settings ? planCompaction(ctx, settings) : undefined;
  let sized = measure(ctx, declarations);
  const enabled = settings?.enabled ?? false;
  if (!enabled || window === undefined) {
    if (legacy) sized = await fold(ctx, declarations, signal, legacy);
    return fits(sized, window);
  }
  const trigger = settings!.threshold * window;
  if (!legacy && sized.tokens <= trigger) return fits(sized, window);

  // A newest result that would not fit even with everything before it folded.
  const scale = sized.tokens / Math.max(1, sized.estimated);
  const fixed = estimateTokensOf([state.systemInstruction, declarations]);
  const note = Math.min(NOTE_SHARE * window, NOTE_MAX_TOKENS) / scale;
  const sizes = sizesOf(ctx, state.messages);
  const lastCut = safeCutAtOrBefore(state.messages, state.messages.length - 1);
  const newest = fixed + note + sum(sizes, lastCut);
  if (newest > trigger / scale) {
    trim(ctx, lastCut, newest - trigger / scale, window);
    sized = measure(ctx, declarations);
    if (!legacy && sized.tokens <= trigger) return fits(sized, window);
  }

  // Due by count or reported usage only, the fold keeps what those triggers keep.
  const plan =
    legacy && sized.tokens <= trigger
      ? legacy
      : foldPlan(ctx, legacy, Math.min(trigger, KEPT_SHARE * window) / scale - fixed - note);
  if (plan) sized = await fold(ctx, declarations, signal, plan);
  if (sized.tokens <= window) return fits(sized, window);

  // Last resort: the summary failed or the kept turns are still too large.
  const over = (sized.tokens - window * settings!.threshold) / scale;
  trim(ctx, 0, over, window);
  sized = measure(ctx, declarations);
  if (sized.tokens > window) {
    leaveOut(ctx, (window * settings!.threshold) / scale - fixed - note);
    sized = measure(ctx, declarations);
  }
  return sized.tokens <= window
    ? fits(sized, window)
    : { kind: 'too_big', tokens: sized.tokens, window };
}

const fits = (sized: Sized, window: number | undefined): Fit => ({
  kind: 'fits',
  ...sized,
  ...(window !== undefined ? { window } : {}),
});

async function fold(
  ctx: LoopContext,
  declarations: readonly ToolDeclaration[],
  signal: AbortSignal,
  plan: CompactionPlan,
): Promise<Sized> {
  // Loaded when a conversation first comes due: most runs never fold one.
  const { compactConversation } = await import('./compact-conversation.js');
  await compactConversation(ctx, signal, plan);
  return measure(ctx, declarations);
}

/**
 * Where to fold so the kept turns fit `room` (estimated tokens): the newest
 * `keepTurns` turns when they fit, fewer when they do not, never less than
 * the count and usage triggers ask. A thread's first turn folds its history.
 */
function foldPlan(
  ctx: LoopContext,
  legacy: CompactionPlan | undefined,
  room: number,
): CompactionPlan | undefined {
  const { messages } = ctx.state;
  const sizes = sizesOf(ctx, messages);
  const safe = safeCuts(messages);
  if (safe.length === 0) return legacy;
  const least = legacy?.cut ?? turnCut(messages, ctx.compaction!.keepTurns);
  const cut = safe.find((c) => c >= least && sum(sizes, c) <= room) ?? safe[safe.length - 1] ?? 0;
  const history = ctx.state.turns === 0 && ctx.compaction!.historyWindow !== undefined;
  return { scope: legacy?.scope ?? (history ? 'history' : 'run'), cut: Math.max(cut, least) };
}

/** Trims the largest results from `from` on by `excess` estimated tokens, and says so. */
function trim(ctx: LoopContext, from: number, excess: number, window: number): void {
  if (excess <= 0) return;
  const result = trimLargestResults(ctx.state.messages, from, charsForTokens(Math.ceil(excess)));
  if (result.trimmed === 0) return;
  ctx.state.messages = result.messages;
  delete ctx.measured;
  ctx.emit({
    type: 'warning',
    message: `${result.trimmed === 1 ? 'A tool result was' : `${result.trimmed} tool results were`} trimmed to fit the context window (${window} tokens): ${result.removedChars} characters left out, head and tail kept`,
    data: { context: 'compaction', reason: 'trimmed_to_fit' },
  });
}

/** Leaves the oldest turns out, unsummarised, until the rest fits `room`: the last resort. */
function leaveOut(ctx: LoopContext, room: number): void {
  const { messages } = ctx.state;
  const sizes = sizesOf(ctx, messages);
  const safe = safeCuts(messages);
  const cut = safe.find((c) => sum(sizes, c) <= room) ?? safe[safe.length - 1];
  if (cut === undefined) return;
  const note = `${cut} earlier messages were left out to fit the context window; they could not be summarised.`;
  ctx.state.messages = foldedConversation(
    messages,
    cut,
    note,
    latestRequest(messages.slice(0, cut)),
  );
  delete ctx.measured;
  ctx.emit({
    type: 'warning',
    message: note,
    data: { context: 'compaction', reason: 'left_out_to_fit' },
  });
}

function safeCuts(messages: readonly Message[]): number[] {
  const cuts: number[] = [];
  for (let at = 1; at < messages.length; at++) if (isSafeCut(messages, at)) cuts.push(at);
  return cuts;
}

function sum(sizes: readonly number[], from: number): number {
  let total = 0;
  for (let i = from; i < sizes.length; i++) total += sizes[i] ?? 0;
  return total;
}
