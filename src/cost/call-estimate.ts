import type { Message, ModelRequest } from '../model/types.js';
import type { ModelPrice } from './prices.js';
import { maxOutputTokensFor } from './max-output-tokens.js';
import { jsonSize, type JsonSize } from './json-size.js';
import { messageSize } from './message-size.js';

/**
 * Output tokens a call may write when its definition sets no
 * `maxOutputTokens` and a cost cap applies: the call is sent with this
 * limit (the Anthropic client's own default), so what it reserves is a real
 * ceiling and not a guess. Lower when the model's own limit is lower.
 */
export const BUDGET_OUTPUT_TOKENS = 8_192;

/** Characters per token, on the low side (English runs near 4), so input is over- not under-estimated. */
const CHARS_PER_TOKEN = 3;

/** What providers charge for one image at most, roughly (a large Anthropic or OpenAI image). */
const IMAGE_TOKENS = 1_600;

/**
 * Input tokens a request will be billed for, estimated before it is sent from
 * its JSON (structure included: providers bill call ids, names and argument
 * keys too). Images count a fixed amount each; signatures are not input.
 */
export function estimateInputTokens(request: ModelRequest): number {
  return estimateTokensOf([request.systemInstruction, request.tools, request.messages]);
}

/** The same estimate for any part of a request (one message, the tools), so parts can be summed. */
export function estimateTokensOf(value: unknown): number {
  return tokensOfSize(jsonSize(value));
}

/** The same estimate for one message, read by its known shape (measured every turn). */
export function estimateMessageTokens(message: Message): number {
  return tokensOfSize(messageSize(message));
}

const tokensOfSize = ({ chars, images }: JsonSize): number =>
  Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;

/** Characters that many estimated tokens stand for (to trim a text to a token budget). */
export const charsForTokens = (tokens: number): number =>
  Math.max(0, Math.floor(tokens)) * CHARS_PER_TOKEN;

/**
 * The most output a call may be billed for: its `maxOutputTokens`, else
 * BUDGET_OUTPUT_TOKENS (both capped by the model's own limit). A thinking
 * budget above that raises it (Anthropic sends budget plus room to answer).
 */
export function outputCeiling(request: ModelRequest): number {
  const modelMax = maxOutputTokensFor(request.model) ?? Infinity;
  const asked = Math.min(request.config.maxOutputTokens ?? BUDGET_OUTPUT_TOKENS, modelMax);
  const thinking = request.config.thinkingBudget ?? 0;
  return thinking > asked ? thinking + asked : asked;
}

/** The worst case of a call in dollars: `inputTokens` plus its whole output ceiling, at list prices. */
export function worstCaseUsd(
  request: ModelRequest,
  price: ModelPrice,
  inputTokens = estimateInputTokens(request),
): number {
  return (inputTokens * price.input + outputCeiling(request) * price.output) / 1_000_000;
}
