import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { Message } from '../../model/types.js';
import type { ToolContext } from '../../tools/types.js';

type SamplingParams = CreateMessageRequest['params'];
type SamplingContent = SamplingParams['messages'][number]['content'];

/**
 * A server's `sampling/createMessage` answered by the calling agent's own
 * model (`ctx.generate`), so its tokens are the run's. Images and audio
 * are described by type and size: the request reaches the model as text.
 */
export function samplingHost(
  generate: NonNullable<ToolContext['generate']>,
): (params: SamplingParams, signal: AbortSignal) => Promise<CreateMessageResult> {
  return async (params, signal) => {
    const messages: Message[] = params.messages.map((message) => ({
      role: message.role === 'assistant' ? 'model' : 'user',
      parts: [{ kind: 'text', text: contentText(message.content) }],
    }));
    const answer = await generate(
      {
        ...(params.systemPrompt ? { systemInstruction: params.systemPrompt } : {}),
        messages,
        maxOutputTokens: params.maxTokens,
        ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      },
      signal,
    );
    return {
      role: 'assistant',
      content: { type: 'text', text: answer.text },
      model: answer.model,
      stopReason: 'endTurn',
    };
  };
}

function contentText(content: SamplingContent): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'image':
        case 'audio':
          return `[${block.type}: ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
        case 'tool_use':
          return `[tool call ${block.name}: ${JSON.stringify(block.input)}]`;
        case 'tool_result':
          return `[tool result ${block.toolUseId}]`;
        default:
          return block satisfies never;
      }
    })
    .join('\n');
}
