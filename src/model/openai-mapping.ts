/**
 * Neutral messages → Chat Completions messages and tools, and usage back.
 * Thoughts are not sent back: Chat Completions has no place for them.
 */
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type {
  FunctionResponsePart,
  Message,
  ModelRequest,
  ToolDeclaration,
  Usage,
} from './types.js';

export function toOpenAIMessages(request: ModelRequest): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.systemInstruction)
    messages.push({ role: 'system', content: request.systemInstruction });
  for (const message of request.messages) {
    messages.push(
      ...(message.role === 'model' ? assistantMessages(message) : userMessages(message)),
    );
  }
  return messages;
}

export function toOpenAITools(tools: readonly ToolDeclaration[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

function assistantMessages(message: Message): ChatCompletionMessageParam[] {
  const text = joinText(message);
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = message.parts.flatMap((part) =>
    part.kind === 'function_call'
      ? [
          {
            id: part.id,
            type: 'function' as const,
            function: { name: part.name, arguments: JSON.stringify(part.args) },
          },
        ]
      : [],
  );
  if (text === '' && toolCalls.length === 0) return []; // e.g. a turn that was only thoughts
  return [
    {
      role: 'assistant',
      content: text === '' ? null : text,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
  ];
}

/** Tool results first: they must directly follow the assistant message that called the tools. */
function userMessages(message: Message): ChatCompletionMessageParam[] {
  const results: ChatCompletionMessageParam[] = message.parts.flatMap((part) =>
    part.kind === 'function_response'
      ? [{ role: 'tool' as const, tool_call_id: part.id, content: toolContent(part) }]
      : [],
  );
  // Tool messages carry text only: a tool's images follow them as a user message.
  const images = message.parts.flatMap((part) =>
    part.kind === 'function_response' && part.images?.length
      ? [
          { type: 'text' as const, text: `Images from ${part.name}:` },
          ...part.images.map(({ mimeType, data }) => ({
            type: 'image_url' as const,
            image_url: { url: `data:${mimeType};base64,${data}` },
          })),
        ]
      : [],
  );
  const withImages: ChatCompletionMessageParam[] =
    images.length > 0 ? [...results, { role: 'user', content: images }] : results;
  const text = joinText(message);
  return text === '' ? withImages : [...withImages, { role: 'user', content: text }];
}

function toolContent(part: FunctionResponsePart): string {
  const { response } = part;
  if ('error' in response) return JSON.stringify({ error: response.error });
  return typeof response.output === 'string'
    ? response.output
    : JSON.stringify(response.output ?? null);
}

function joinText(message: Message): string {
  return message.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

/** OpenAI counts reasoning inside completion_tokens; ours keeps them apart, as Gemini does. */
export function usageOf(usage: CompletionUsage | null | undefined): Usage {
  const thoughtTokens = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  const inputTokens = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  return {
    inputTokens,
    outputTokens: Math.max(0, completion - thoughtTokens),
    thoughtTokens,
    totalTokens: usage?.total_tokens ?? inputTokens + completion,
  };
}
