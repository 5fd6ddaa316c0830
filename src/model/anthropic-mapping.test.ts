import { describe, expect, it } from 'vitest';
import {
  MIN_THINKING_BUDGET,
  REDACTED_THINKING_PREFIX,
  toAnthropicMessages,
  toAnthropicParams,
} from './anthropic-mapping.js';
import type { GenerationConfig, Message, ModelRequest } from './types.js';

const ask = (config: GenerationConfig, messages: Message[] = []): ModelRequest => ({
  model: 'claude-haiku-5-5',
  messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Hi' }] }, ...messages],
  tools: [],
  config,
});

describe('toAnthropicParams', () => {
  it('raises max_tokens when the thinking budget would leave no room for the answer', () => {
    const params = toAnthropicParams(ask({ thinkingBudget: 20_000, maxOutputTokens: 4000 }));
    expect(params.thinking).toEqual({ type: 'enabled', budget_tokens: 20_000 });
    expect(params.max_tokens).toBeGreaterThan(20_000);
  });

  it('lifts a budget below the API minimum to it', () => {
    expect(toAnthropicParams(ask({ thinkingBudget: 100 })).thinking).toEqual({
      type: 'enabled',
      budget_tokens: MIN_THINKING_BUDGET,
    });
  });

  it('keeps a top_p thinking allows (≥ 0.95) and drops one it does not', () => {
    expect(toAnthropicParams(ask({ thinkingBudget: -1, topP: 0.97 }))).toMatchObject({
      top_p: 0.97,
    });
    expect(toAnthropicParams(ask({ thinkingBudget: -1, topP: 0.5 }))).not.toHaveProperty('top_p');
  });

  it('sends no system, tools or thinking when the request has none', () => {
    const params = toAnthropicParams(ask({}));
    expect(params).not.toHaveProperty('system');
    expect(params).not.toHaveProperty('tools');
    expect(params).not.toHaveProperty('thinking');
  });

  it('declares the tools the history used, uncallable, when a turn offers none (the API insists)', () => {
    const params = toAnthropicParams(
      ask({}, [
        {
          role: 'model',
          parts: [{ kind: 'function_call', id: 't1', name: 'grep', args: { q: 'x' } }],
        },
        {
          role: 'user',
          parts: [
            { kind: 'function_response', id: 't1', name: 'grep', response: { output: 'hit' } },
            { kind: 'text', text: 'Answer now; no tools are available.' },
          ],
        },
      ]),
    );
    expect(params.tools).toEqual([
      {
        name: 'grep',
        description: 'Not available in this turn.',
        input_schema: { type: 'object' },
      },
    ]);
    expect(params.tool_choice).toEqual({ type: 'none' });
  });

  it('gives every tool an object input_schema, even one that forgot to say so', () => {
    const params = toAnthropicParams({
      ...ask({}),
      tools: [{ name: 'noop', description: 'Nothing.', parameters: { properties: {} } }],
    });
    expect(params.tools?.[0]).toMatchObject({ input_schema: { type: 'object', properties: {} } });
  });
});

describe('toAnthropicMessages', () => {
  it('sends redacted thinking back as a redacted_thinking block', () => {
    const messages = toAnthropicMessages([
      { role: 'user', parts: [{ kind: 'text', text: 'Hi' }] },
      {
        role: 'model',
        parts: [
          { kind: 'thought', text: '', signature: `${REDACTED_THINKING_PREFIX}b3BhcXVl` },
          { kind: 'text', text: 'Hello.' },
        ],
      },
    ]);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'b3BhcXVl' },
        { type: 'text', text: 'Hello.' },
      ],
    });
  });

  it('leaves out turns with nothing to send and blank text, and marks only the newest user turn', () => {
    const messages = toAnthropicMessages([
      { role: 'user', parts: [{ kind: 'text', text: 'One' }] },
      {
        role: 'model',
        parts: [
          { kind: 'thought', text: 'unsigned' },
          { kind: 'text', text: '\n\n' },
        ],
      },
      { role: 'user', parts: [{ kind: 'text', text: 'Two' }] },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'One' }] },
      {
        role: 'user',
        content: [{ type: 'text', text: 'Two', cache_control: { type: 'ephemeral' } }],
      },
    ]);
  });

  it('sends an empty tool output as a tool_result without content', () => {
    const messages = toAnthropicMessages([
      {
        role: 'user',
        parts: [{ kind: 'function_response', id: 't1', name: 'x', response: { output: '' } }],
      },
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('does not mark a conversation that ends with the model’s turn', () => {
    const messages = toAnthropicMessages([
      { role: 'user', parts: [{ kind: 'text', text: 'Hi' }] },
      { role: 'model', parts: [{ kind: 'text', text: 'Hello' }] },
    ]);
    expect(JSON.stringify(messages)).not.toContain('cache_control');
  });
});
