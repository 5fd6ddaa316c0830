import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { failureText, isUnreachable } from './failure-text.js';

describe('failure text: what a person reads when a request fails', () => {
  it('never shows "Failed to fetch": an unreachable server is named, and the message is kept', () => {
    const offline = new TypeError('Failed to fetch');
    expect(isUnreachable(offline)).toBe(true);
    expect(failureText(offline, 'send')).toEqual({
      text: 'Cannot reach the server — your message is kept. Retry when it is back.',
      retry: true,
    });
    expect(failureText(offline, 'decide').text).toMatch(/your decision was not sent/);
    expect(failureText(offline, 'load').text).not.toMatch(/fetch/i);
  });

  it('treats a bare gateway error as unreachable, but the server’s own 502 as its answer', () => {
    expect(isUnreachable(new ApiError(502, 'http_502', 'Bad Gateway'))).toBe(true);
    const model = new ApiError(502, 'model_error', 'The model provider failed.');
    expect(isUnreachable(model)).toBe(false);
    expect(failureText(model, 'send')).toEqual({
      text: 'The model provider failed. Your message is kept.',
      retry: true,
    });
  });

  it('passes the server’s message on, offering a retry only where one can help', () => {
    const invalid = new ApiError(422, 'validation_error', 'prompt: is required');
    expect(failureText(invalid, 'decide')).toEqual({ text: 'prompt: is required', retry: false });
    expect(failureText(new ApiError(429, 'rate_limited', 'Slow down.'), 'load').retry).toBe(true);
  });
});
