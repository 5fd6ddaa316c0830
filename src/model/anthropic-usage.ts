/**
 * Anthropic usage → ours. Anthropic's `input_tokens` leaves out the tokens
 * read from and written to the prompt cache; our `inputTokens` counts every
 * input token, with the cache reads also in `cachedInputTokens`. Its
 * `output_tokens` includes thinking, which ours keeps apart.
 */
import type {
  MessageDeltaUsage,
  Usage as AnthropicUsage,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Usage } from './types.js';

type Counts = Pick<
  AnthropicUsage,
  | 'input_tokens'
  | 'output_tokens'
  | 'cache_creation_input_tokens'
  | 'cache_read_input_tokens'
  | 'output_tokens_details'
>;

/** The counts as they stand while a message streams (message_start, then message_delta). */
export type UsageSoFar = Partial<Counts>;

/** message_start's usage, updated by a message_delta's cumulative counts (null: unchanged). */
export function mergeUsage(before: UsageSoFar, delta: MessageDeltaUsage): UsageSoFar {
  return {
    ...before,
    output_tokens: delta.output_tokens,
    ...(delta.input_tokens != null ? { input_tokens: delta.input_tokens } : {}),
    ...(delta.cache_read_input_tokens != null
      ? { cache_read_input_tokens: delta.cache_read_input_tokens }
      : {}),
    ...(delta.cache_creation_input_tokens != null
      ? { cache_creation_input_tokens: delta.cache_creation_input_tokens }
      : {}),
    ...(delta.output_tokens_details != null
      ? { output_tokens_details: delta.output_tokens_details }
      : {}),
  };
}

export function usageOf(counts: UsageSoFar): Usage {
  const cacheRead = counts.cache_read_input_tokens ?? 0;
  const inputTokens =
    (counts.input_tokens ?? 0) + cacheRead + (counts.cache_creation_input_tokens ?? 0);
  const output = counts.output_tokens ?? 0;
  const thoughtTokens = Math.min(output, counts.output_tokens_details?.thinking_tokens ?? 0);
  return {
    inputTokens,
    outputTokens: output - thoughtTokens,
    thoughtTokens,
    totalTokens: inputTokens + output,
    cachedInputTokens: cacheRead,
  };
}
