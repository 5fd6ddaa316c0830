import type { Attributes } from '@opentelemetry/api';
import { GenAI } from './gen-ai-attributes.js';

/** Token counts as the conventions count them. */
export interface Tokens {
  input: number;
  /** Thoughts included: the conventions count reasoning as output. */
  output: number;
  reasoning: number;
  cachedInput?: number;
}

export const NO_TOKENS: Tokens = Object.freeze({ input: 0, output: 0, reasoning: 0 });

/** Adds a usage event's data (Cadre's Usage: thoughts apart from output) to a total. */
export function addTokens(total: Tokens, usage: Readonly<Record<string, unknown>>): Tokens {
  const count = (key: string): number => {
    const value = usage[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  };
  const reasoning = count('thoughtTokens');
  const cached = usage.cachedInputTokens;
  return {
    input: total.input + count('inputTokens'),
    output: total.output + count('outputTokens') + reasoning,
    reasoning: total.reasoning + reasoning,
    ...(typeof cached === 'number' || total.cachedInput !== undefined
      ? { cachedInput: (total.cachedInput ?? 0) + count('cachedInputTokens') }
      : {}),
  };
}

export function tokenAttributes(tokens: Tokens): Attributes {
  if (tokens === NO_TOKENS) return {};
  return {
    [GenAI.inputTokens]: tokens.input,
    [GenAI.outputTokens]: tokens.output,
    ...(tokens.reasoning > 0 ? { [GenAI.reasoningOutputTokens]: tokens.reasoning } : {}),
    ...(tokens.cachedInput !== undefined
      ? { [GenAI.cacheReadInputTokens]: tokens.cachedInput }
      : {}),
  };
}
