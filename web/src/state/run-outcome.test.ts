import { describe, expect, it } from 'vitest';
import { isScripted, replyOutcome, statusLabel } from './run-outcome.js';

describe('replyOutcome', () => {
  it('reads a cancel in the old shape (failed, code cancelled) and the new (cancelled)', () => {
    expect(replyOutcome({ status: 'failed', errorCode: 'cancelled' })).toBe('cancelled');
    expect(replyOutcome({ status: 'cancelled' })).toBe('cancelled');
    expect(statusLabel({ status: 'failed', errorCode: 'cancelled' })).toBe('cancelled');
    expect(replyOutcome({ status: 'failed', errorCode: 'model_error' })).toBe('failed');
    expect(replyOutcome({ status: 'completed' })).toBe('answered');
    expect(replyOutcome({ status: 'awaiting_confirmation' })).toBe('open');
  });

  it('knows a scripted model by its prefix', () => {
    expect(isScripted('scripted:examples/scripts/assistant-turns.json')).toBe(true);
    expect(isScripted('scripted')).toBe(true);
    expect(isScripted('gemini-2.5-flash')).toBe(false);
    expect(isScripted(undefined)).toBe(false);
  });
});
