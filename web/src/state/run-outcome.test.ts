import { describe, expect, it } from 'vitest';
import { isScripted, runOutcome, statusLabel } from './run-outcome.js';

describe('runOutcome', () => {
  it('reads a cancel in the old shape (failed, code cancelled) and the new (cancelled)', () => {
    expect(runOutcome({ status: 'failed', errorCode: 'cancelled' })).toBe('cancelled');
    expect(runOutcome({ status: 'cancelled' })).toBe('cancelled');
    expect(statusLabel({ status: 'failed', errorCode: 'cancelled' })).toBe('cancelled');
    expect(runOutcome({ status: 'failed', errorCode: 'model_error' })).toBe('failed');
    expect(runOutcome({ status: 'completed' })).toBe('answered');
    expect(runOutcome({ status: 'awaiting_confirmation' })).toBe('open');
  });

  it('knows a scripted model by its prefix', () => {
    expect(isScripted('scripted:examples/scripts/assistant-turns.json')).toBe(true);
    expect(isScripted('scripted')).toBe(true);
    expect(isScripted('gemini-2.5-flash')).toBe(false);
    expect(isScripted(undefined)).toBe(false);
  });
});
