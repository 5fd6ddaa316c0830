import {
  estimateInputTokens,
  estimateMessageTokens,
  estimateTokensOf,
} from '../../cost/call-estimate.js';
import type {
  GenerationConfig,
  Message,
  ModelRequest,
  ToolDeclaration,
} from '../../model/types.js';

/**
 * What the last call of an execution measured: our estimate of its request
 * and the input the provider reported for it. The next request is the same
 * conversation plus what was added since, so its size is the reported one
 * plus the estimated growth: calibrated by the provider's own count.
 */
export interface MeasuredRequest {
  estimated: number;
  billed: number;
}

/**
 * A request's input tokens before it is sent: the last reported size plus
 * the growth since (estimated high), or, with nothing measured yet (a run's
 * first call, right after a fold), the estimate scaled by the billed/estimated
 * ratio the cost budget has learned (at least 1: the estimate runs high).
 */
export function measureRequest(
  ctx: { measured?: MeasuredRequest; budget: { inputScale(): number } },
  request: ModelRequest,
  estimated = estimateInputTokens(request),
): number {
  return tokensOf(ctx, estimated);
}

/** The window a request must fit: the model's, or less when a provider said so. */
export function effectiveWindow(ctx: {
  compaction?: { contextWindow?: number };
  learnedWindow?: number;
}): number | undefined {
  const configured = ctx.compaction?.contextWindow;
  const learned = ctx.learnedWindow;
  if (configured === undefined) return learned;
  return learned === undefined ? configured : Math.min(configured, learned);
}

/** What measuring a request needs of a run's loop context. */
export interface MeasuringContext {
  state: Pick<ModelRequest, 'model' | 'systemInstruction' | 'messages'>;
  generation: GenerationConfig;
  measured?: MeasuredRequest;
  budget: { inputScale(): number };
  /** Each message's estimate, kept for fit-window, which reads the sizes one by one. */
  messageTokens?: WeakMap<Message, number>;
  /**
   * The system prompt's and tool declarations' estimate, kept while they stay
   * the same: a box runs of one definition share (shared-tool-set.ts).
   */
  fixedTokens?: { last?: FixedTokens };
  /** The conversation's estimate so far (conversationTokens). */
  conversationTokens?: ConversationTokens;
}

/** The estimate of a request's part that does not grow, and what it was made from. */
export interface FixedTokens {
  system: unknown;
  declarations: readonly ToolDeclaration[];
  tokens: number;
}

/**
 * The summed estimate of a conversation's first `count` messages, kept
 * between turns: a conversation only grows, so a turn measures only the
 * messages it added. A fold or a trim makes a new conversation array, which
 * starts the sum again.
 */
export interface ConversationTokens {
  messages: readonly Message[];
  count: number;
  /** The last message counted: the sum is kept only while it is still in place. */
  last: Message | undefined;
  tokens: number;
}

/** The next request and its size: our estimate, and the tokens it will count for. */
export interface Sized {
  request: ModelRequest;
  estimated: number;
  tokens: number;
}

/** The request the conversation makes now, measured. */
export function measure(ctx: MeasuringContext, declarations: readonly ToolDeclaration[]): Sized {
  const request: ModelRequest = {
    model: ctx.state.model,
    systemInstruction: ctx.state.systemInstruction,
    messages: ctx.state.messages,
    tools: [...declarations],
    config: ctx.generation,
  };
  return { request, ...measureSize(ctx, declarations) };
}

/** The size of the request the conversation makes now, without building it. */
export function measureSize(
  ctx: MeasuringContext,
  declarations: readonly ToolDeclaration[],
): { estimated: number; tokens: number } {
  const estimated = fixedTokensOf(ctx, declarations) + conversationTokensOf(ctx);
  return { estimated, tokens: tokensOf(ctx, estimated) };
}

/** measureRequest for an estimate already made. */
function tokensOf(
  ctx: { measured?: MeasuredRequest; budget: { inputScale(): number } },
  estimated: number,
): number {
  const last = ctx.measured;
  if (last && estimated >= last.estimated) return last.billed + (estimated - last.estimated);
  return Math.ceil(estimated * ctx.budget.inputScale());
}

/** The part of every request that does not grow: estimated once per system prompt and tool set. */
function fixedTokensOf(ctx: MeasuringContext, declarations: readonly ToolDeclaration[]): number {
  const system = ctx.state.systemInstruction;
  const box = (ctx.fixedTokens ??= {});
  const kept = box.last;
  if (kept && kept.system === system && kept.declarations === declarations) return kept.tokens;
  const tokens = estimateTokensOf([system, declarations]);
  box.last = { system, declarations, tokens };
  return tokens;
}

/** The conversation's estimate: the kept sum plus the messages added since. */
function conversationTokensOf(ctx: MeasuringContext): number {
  const { messages } = ctx.state;
  let kept = ctx.conversationTokens;
  if (
    !kept ||
    kept.messages !== messages ||
    kept.count > messages.length ||
    (kept.count > 0 && messages[kept.count - 1] !== kept.last)
  ) {
    kept = ctx.conversationTokens = { messages, count: 0, last: undefined, tokens: 0 };
  }
  if (kept.count === messages.length) return kept.tokens;
  const cache = ctx.messageTokens;
  for (let i = kept.count; i < messages.length; i++) {
    const message = messages[i] as Message;
    kept.tokens += cache?.get(message) ?? estimateMessageTokens(message);
  }
  kept.count = messages.length;
  kept.last = messages[messages.length - 1];
  return kept.tokens;
}

/** Each message's estimated tokens, from the cache where measured before. */
export function sizesOf(ctx: MeasuringContext, messages: readonly Message[]): number[] {
  const cache = (ctx.messageTokens ??= new WeakMap());
  return messages.map((message) => {
    let tokens = cache.get(message);
    if (tokens === undefined) {
      tokens = estimateMessageTokens(message);
      cache.set(message, tokens);
    }
    return tokens;
  });
}
