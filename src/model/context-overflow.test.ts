import { describe, expect, it } from 'vitest';
import { contextOverflow } from './context-overflow.js';
import { describeFailure } from './provider-failure.js';
import { anthropicFailure } from './anthropic-failure.js';

describe("a provider's too-long answer is recognised from its real wording", () => {
  it('reads the counts Gemini, OpenAI (chat and responses) and Anthropic name', () => {
    const gemini = new Error(
      JSON.stringify({
        error: {
          code: 400,
          message:
            'The input token count (1212121) exceeds the maximum number of tokens allowed (1048576).',
          status: 'INVALID_ARGUMENT',
        },
      }),
    );
    expect(contextOverflow({ ...describeFailure(Object.assign(gemini, { status: 400 })) })).toEqual(
      { inputTokens: 1_212_121, maxTokens: 1_048_576 },
    );
    const openai = Object.assign(new Error('400'), {
      status: 400,
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });
    expect(contextOverflow(describeFailure(openai))).toEqual({
      inputTokens: 130_512,
      maxTokens: 128_000,
    });
    const responses = Object.assign(new Error('400'), {
      status: 400,
      error: {
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    });
    expect(contextOverflow(describeFailure(responses))).toEqual({});
    const anthropic = anthropicFailure({
      status: 400,
      error: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'prompt is too long: 208310 tokens > 200000 maximum',
        },
      },
    });
    expect(contextOverflow(describeFailure(anthropic))).toEqual({
      inputTokens: 208_310,
      maxTokens: 200_000,
    });
    const tooLarge = anthropicFailure({
      error: {
        type: 'error',
        error: {
          type: 'request_too_large',
          message: 'Request exceeds the maximum allowed number of bytes.',
        },
      },
    });
    expect(contextOverflow(describeFailure(tooLarge))).toEqual({});
  });

  it('leaves other failures alone: a bad request, a rate limit, an overloaded server', () => {
    expect(contextOverflow({ status: 400, detail: 'Invalid value at tools[0]' })).toBeUndefined();
    expect(contextOverflow({ status: 429, detail: 'prompt is too long' })).toBeUndefined();
    expect(contextOverflow({ status: 529, detail: 'Overloaded' })).toBeUndefined();
  });
});
