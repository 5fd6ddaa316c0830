import * as z from 'zod';
import { parseInput } from '../request-schemas.js';

/**
 * Content as OpenAI sends it: a string, or parts. Parts other than text
 * (images, audio, files) pass the schema so the prompt builder can refuse
 * them with a message that says why.
 */
const content = z
  .union([
    z.string(),
    z.array(
      z.object({
        type: z.string().max(50),
        text: z.string().optional(),
        refusal: z.string().optional(),
      }),
    ),
  ])
  .nullish();

const toolCall = z.object({
  id: z.string().max(200).optional(),
  function: z.object({ name: z.string().max(200), arguments: z.string() }).optional(),
});

const message = z.object({
  // `developer` is what newer OpenAI models call `system`; `function` is the legacy `tool`.
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content,
  name: z.string().max(200).optional(),
  tool_calls: z.array(toolCall).max(100).nullish(),
  tool_call_id: z.string().max(200).optional(),
});

export type ChatMessage = z.output<typeof message>;

/**
 * `POST /v1/chat/completions`. Lenient about keys: SDKs send many fields an
 * agent's own definition decides (its model, sampling and tools). Those are
 * not applied, and the answer names them (request-settings.ts);
 * `response_format` is checked against the agent's output schema there.
 */
const chatBody = z.object({
  model: z
    .string()
    .max(200)
    .refine((s) => s.trim().length > 0, 'must not be empty'),
  messages: z.array(message).min(1).max(1000),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  // One run gives one answer: asking for more choices is refused rather than silently ignored.
  n: z.literal(1).nullish(),
});

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk with the run's token usage. */
  includeUsage: boolean;
}

/** Parses the body or throws a 400 naming the wrong field. */
export function parseChatRequest(body: unknown): ChatRequest {
  const parsed = parseInput(chatBody, body, 'body');
  return {
    model: parsed.model.trim(),
    messages: parsed.messages,
    stream: parsed.stream === true,
    includeUsage: parsed.stream_options?.include_usage === true,
  };
}
