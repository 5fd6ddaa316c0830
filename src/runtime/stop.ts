import type { RecoverableReason } from './run-result.js';

/** Why the loop stopped; drives recovery and the result (a union, not flags). */
export type Stop =
  | { reason: 'GOAL' }
  | { reason: 'ABORTED' }
  | { reason: 'ERROR'; error: { code: string; message: string } }
  | { reason: RecoverableReason };

export function isRecoverable(stop: Stop): stop is { reason: RecoverableReason } {
  return (
    stop.reason === 'MAX_TURNS' || stop.reason === 'TIMEOUT' || stop.reason === 'NO_COMPLETION'
  );
}
