import * as z from 'zod';
import { HttpProblem } from '../http-problem.js';
import { parseInput } from '../request-schemas.js';
import type { ChatMessage } from './chat-request.js';

const part = z.object({
  type: z.string().max(50),
  text: z.string().optional(),
  refusal: z.string().optional(),
});

/**
 * One input item: a message (with or without `type: "message"`), or a
 * function call and its output that the client ran itself. Other items
 * (reasoning, file search...) pass the schema so the conversion can refuse
 * them by path.
 */
const item = z.object({
  type: z.string().max(50).optional(),
  role: z.enum(['system', 'developer', 'user', 'assistant']).optional(),
  content: z.union([z.string(), z.array(part).max(1000)]).optional(),
  call_id: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
  arguments: z.string().optional(),
  output: z.string().optional(),
});

/**
 * `POST /v1/responses`. Lenient about keys like the chat route: sampling,
 * `tools` and `reasoning` are the agent's definition's to decide, and the
 * answer names them; `text.format` is checked against its output schema.
 */
const responsesBody = z.object({
  model: z
    .string()
    .max(200)
    .refine((s) => s.trim().length > 0, 'must not be empty'),
  input: z.union([z.string().max(1_000_000), z.array(item).min(1).max(1000)]),
  instructions: z.string().max(100_000).nullish(),
  previous_response_id: z.string().max(210).nullish(),
  stream: z.boolean().nullish(),
});

export interface ResponsesRequest {
  model: string;
  /** The input as chat messages, `instructions` first as a system message. */
  messages: ChatMessage[];
  stream: boolean;
  /** The run id behind an earlier response (`resp_<runId>`), whose thread this continues. */
  previousRunId?: string;
}

export const RESPONSE_ID_PREFIX = 'resp_';

/** Parses the body or throws a 400 naming the wrong field. */
export function parseResponsesRequest(body: unknown): ResponsesRequest {
  const parsed = parseInput(responsesBody, body, 'body');
  const input: ChatMessage[] =
    typeof parsed.input === 'string'
      ? [{ role: 'user', content: parsed.input }]
      : parsed.input.map(chatMessage);
  // Checked here so the refusal names `input`, not the chat route's `messages`.
  if (input.at(-1)?.role !== 'user')
    throw refused('body.input', "the last item must be the user's message (the prompt).");
  const previous = parsed.previous_response_id;
  if (previous !== undefined && previous !== null && !previous.startsWith(RESPONSE_ID_PREFIX))
    throw new HttpProblem(
      400,
      'validation_error',
      `body.previous_response_id: must be the id of an earlier response (${RESPONSE_ID_PREFIX}…).`,
    );
  return {
    model: parsed.model.trim(),
    messages: parsed.instructions
      ? [{ role: 'system', content: parsed.instructions }, ...input]
      : input,
    stream: parsed.stream === true,
    ...(previous ? { previousRunId: previous.slice(RESPONSE_ID_PREFIX.length) } : {}),
  };
}

type Item = z.output<typeof item>;

function chatMessage(entry: Item, index: number): ChatMessage {
  const type = entry.type ?? 'message';
  switch (type) {
    case 'message':
      if (!entry.role) throw refused(`body.input.${index}.role`, 'is required for a message');
      return { role: entry.role, content: textParts(entry, index) };
    case 'function_call':
      return {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            ...(entry.call_id ? { id: entry.call_id } : {}),
            function: { name: entry.name ?? 'unknown', arguments: entry.arguments ?? '' },
          },
        ],
      };
    case 'function_call_output':
      return {
        role: 'tool',
        content: entry.output ?? '',
        ...(entry.call_id ? { tool_call_id: entry.call_id } : {}),
      };
    default:
      throw refused(
        `body.input.${index}.type`,
        `'${type.slice(0, 50)}' items are not supported; Cadre agents take messages.`,
      );
  }
}

/** Text parts as the chat prompt builder reads them; other parts are refused, not dropped. */
function textParts(entry: Item, index: number): ChatMessage['content'] {
  const { content } = entry;
  if (content === undefined || typeof content === 'string') return content;
  return content.map((p, i) => {
    if (p.type === 'input_text' || p.type === 'output_text' || p.type === 'text')
      return { type: 'text', text: p.text ?? '' };
    if (p.type === 'refusal') return { type: 'refusal', refusal: p.refusal ?? '' };
    throw refused(
      `body.input.${index}.content.${i}`,
      'only text parts are supported; Cadre agents take text.',
    );
  });
}

const refused = (path: string, message: string): HttpProblem =>
  new HttpProblem(400, 'validation_error', `${path}: ${message}`);
