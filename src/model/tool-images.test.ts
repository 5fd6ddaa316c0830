import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from './anthropic-mapping.js';
import { toGeminiContents } from './gemini-mapping.js';
import { toOpenAIMessages } from './openai-mapping.js';
import type { Message } from './types.js';

const PIXEL = 'iVBORw0KGgo=';

/** A turn that called `snapshot`, and its answer with one image. */
const conversation: Message[] = [
  {
    role: 'model',
    parts: [{ kind: 'function_call', id: 'c1', name: 'snapshot', args: {} }],
  },
  {
    role: 'user',
    parts: [
      {
        kind: 'function_response',
        id: 'c1',
        name: 'snapshot',
        response: { output: 'one red pixel' },
        images: [{ mimeType: 'image/png', data: PIXEL }],
      },
    ],
  },
];

describe("a tool's images reach each provider in its own form", () => {
  it('Gemini: inlineData after the function response', () => {
    expect(toGeminiContents(conversation)[1]?.parts).toEqual([
      { functionResponse: { id: 'c1', name: 'snapshot', response: { output: 'one red pixel' } } },
      { inlineData: { mimeType: 'image/png', data: PIXEL } },
    ]);
  });

  it('OpenAI: the tool message, then a user message with an image_url data URL', () => {
    const messages = toOpenAIMessages({
      model: 'gpt-4.1',
      messages: conversation,
      tools: [],
      config: {},
    });
    expect(messages.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'one red pixel' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images from snapshot:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
        ],
      },
    ]);
  });

  it('Anthropic: an image block inside the tool result', () => {
    const user = toAnthropicMessages(conversation)[1];
    const block = Array.isArray(user?.content) ? user.content[0] : undefined;
    expect(block).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'c1',
      content: [
        { type: 'text', text: 'one red pixel' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
      ],
    });
  });
});
