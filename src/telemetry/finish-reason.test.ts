import { describe, expect, it } from 'vitest';
import { finishReason } from './finish-reason.js';

describe('finish reasons as the GenAI conventions spell them', () => {
  it("maps each provider's own values onto stop, length, content_filter, tool_call and error", () => {
    const seen = Object.fromEntries(
      [
        'STOP', // Gemini
        'MAX_TOKENS',
        'SAFETY',
        'FINISH_REASON_UNSPECIFIED',
        'end_turn', // Anthropic
        'max_tokens',
        'tool_use',
        'refusal',
        'stop', // OpenAI
        'length',
        'tool_calls',
        'content_filter',
        'MALFORMED_FUNCTION_CALL',
      ].map((raw) => [raw, finishReason(raw)]),
    );
    expect(seen).toEqual({
      STOP: 'stop',
      MAX_TOKENS: 'length',
      SAFETY: 'content_filter',
      FINISH_REASON_UNSPECIFIED: 'unspecified',
      end_turn: 'stop',
      max_tokens: 'length',
      tool_use: 'tool_call',
      refusal: 'content_filter',
      stop: 'stop',
      length: 'length',
      tool_calls: 'tool_call',
      content_filter: 'content_filter',
      MALFORMED_FUNCTION_CALL: 'error',
    });
  });
});
