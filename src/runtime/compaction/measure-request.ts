import { estimateInputTokens, estimateTokensOf } from '../../cost/call-estimate.js';
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
  const last = ctx.measured;
  if (last && estimated >= last.estimated) return last.billed + (estimated - last.estimated);
  return Math.ceil(estimated * ctx.budget.inputScale());
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
  /** Each message's estimate, kept: messages do not change once in the conversation. */
  messageTokens?: WeakMap<Message, number>;
  /** The system prompt's and tool declarations' estimate, kept while they stay the same. */
  fixedTokens?: { system: unknown; declarations: readonly ToolDeclaration[]; tokens: number };
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
  const estimated = fixedTokensOf(ctx, declarations) + sum(sizesOf(ctx, request.messages));
  return { request, estimated, tokens: measureRequest(ctx, request, estimated) };
}

/** The part of every request that does not grow: estimated once per system prompt and tool set. */
function fixedTokensOf(ctx: MeasuringContext, declarations: readonly ToolDeclaration[]): number {
  const system = ctx.state.systemInstruction;
  const kept = ctx.fixedTokens;
  if (kept && kept.system === system && kept.declarations === declarations) return kept.tokens;
  const tokens = estimateTokensOf([system, declarations]);
  ctx.fixedTokens = { system, declarations, tokens };
  return tokens;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** Each message's estimated tokens, from the cache where measured before. */
export function sizesOf(ctx: MeasuringContext, messages: readonly Message[]): number[] {
  const cache = (ctx.messageTokens ??= new WeakMap());
  return messages.map((message) => {
    let tokens = cache.get(message);
    if (tokens === undefined) {
      tokens = estimateTokensOf(message);
      cache.set(message, tokens);
    }
    return tokens;
  });
}
