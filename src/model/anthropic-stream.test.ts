import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors/index.js';
import { REDACTED_THINKING_PREFIX } from './anthropic-mapping.js';
import { AnthropicStreamReader } from './anthropic-stream.js';
import type { ModelChunk } from './types.js';

/** Events as the SDK hands them over; only the fields the reader looks at are filled in. */
const events = {
  start: (usage: Record<string, unknown> = { input_tokens: 5, output_tokens: 1 }) =>
    ({ type: 'message_start', message: { usage } }) as unknown as RawMessageStreamEvent,
  blockStart: (index: number, block: Record<string, unknown>) =>
    ({
      type: 'content_block_start',
      index,
      content_block: block,
    }) as unknown as RawMessageStreamEvent,
  delta: (index: number, delta: Record<string, unknown>) =>
    ({ type: 'content_block_delta', index, delta }) as unknown as RawMessageStreamEvent,
  blockStop: (index: number) =>
    ({ type: 'content_block_stop', index }) as unknown as RawMessageStreamEvent,
  messageDelta: (stopReason: string, usage: Record<string, unknown> = { output_tokens: 9 }) =>
    ({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage,
    }) as unknown as RawMessageStreamEvent,
  stop: () => ({ type: 'message_stop' }) as RawMessageStreamEvent,
};

function readAll(list: RawMessageStreamEvent[], finish = true): ModelChunk[] {
  const reader = new AnthropicStreamReader(() => 'call_generated');
  const chunks = list.flatMap((event) => [...reader.read(event)]);
  return finish ? [...chunks, ...reader.finish()] : chunks;
}

describe('AnthropicStreamReader', () => {
  it('passes redacted thinking on as a thought whose signature carries the opaque data', () => {
    const chunks = readAll([
      events.start(),
      events.blockStart(0, { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' }),
      events.blockStop(0),
      events.messageDelta('end_turn'),
      events.stop(),
    ]);
    expect(chunks[0]).toEqual({
      type: 'thought',
      text: '',
      signature: `${REDACTED_THINKING_PREFIX}ZW5jcnlwdGVk`,
    });
  });

  it('releases held-back thinking unsigned when the block closes without a signature', () => {
    const chunks = readAll(
      [
        events.start(),
        events.blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
        events.delta(0, { type: 'thinking_delta', thinking: 'a' }),
        events.delta(0, { type: 'thinking_delta', thinking: 'b' }),
        events.blockStop(0),
      ],
      false,
    );
    expect(chunks).toEqual([
      { type: 'thought', text: 'a' },
      { type: 'thought', text: 'b' },
    ]);
  });

  it('gives a tool_use block without an id a generated one, and with no input fragments its start input', () => {
    const chunks = readAll(
      [
        events.start(),
        events.blockStart(0, { type: 'tool_use', id: '', name: 'ls', input: { dir: 'x' } }),
        events.blockStop(0),
      ],
      false,
    );
    expect(chunks).toEqual([
      {
        type: 'function_call',
        call: { kind: 'function_call', id: 'call_generated', name: 'ls', args: { dir: 'x' } },
      },
    ]);
  });

  it('ignores blocks it does not know (server tools) and their deltas', () => {
    const chunks = readAll(
      [
        events.start(),
        events.blockStart(0, { type: 'server_tool_use', id: 's', name: 'web_search', input: {} }),
        events.delta(0, { type: 'input_json_delta', partial_json: '{"q":1}' }),
        events.blockStop(0),
      ],
      false,
    );
    expect(chunks).toEqual([]);
  });

  it('keeps input counts from message_start when message_delta leaves them null', () => {
    const chunks = readAll([
      events.start({ input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 1 }),
      events.messageDelta('end_turn', {
        output_tokens: 9,
        input_tokens: null,
        cache_read_input_tokens: null,
        cache_creation_input_tokens: null,
        output_tokens_details: null,
      }),
      events.stop(),
    ]);
    expect(chunks.at(-1)).toMatchObject({
      type: 'usage',
      usage: {
        inputTokens: 105,
        outputTokens: 9,
        thoughtTokens: 0,
        totalTokens: 114,
        cachedInputTokens: 100,
      },
    });
  });

  it('refuses to call a stream complete without message_stop', () => {
    expect(() => readAll([events.start(), events.messageDelta('end_turn')])).toThrow(ModelError);
  });

  it('treats max_tokens as a normal (truncated) end', () => {
    const chunks = readAll([
      events.start(),
      events.blockStart(0, { type: 'text', text: '' }),
      events.delta(0, { type: 'text_delta', text: 'cut o' }),
      events.blockStop(0),
      events.messageDelta('max_tokens'),
      events.stop(),
    ]);
    expect(chunks.map((c) => c.type)).toEqual(['text', 'finish', 'usage']);
  });
});
