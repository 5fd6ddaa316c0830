import type { RecoverableReason } from '../../contracts/run-result.js';

/** Why the loop stopped; drives recovery and the result (a union, not flags). */
export type Stop =
  | { reason: 'GOAL' }
  | { reason: 'ABORTED' }
  /** A person decides on a call later; the state holds the paused turn. */
  | { reason: 'PAUSED' }
  | { reason: 'ERROR'; error: { code: string; message: string } }
  | { reason: RecoverableReason };

export function isRecoverable(stop: Stop): stop is { reason: RecoverableReason } {
  return (
    stop.reason === 'MAX_TURNS' ||
    stop.reason === 'MAX_COST' ||
    stop.reason === 'TIMEOUT' ||
    stop.reason === 'NO_COMPLETION'
  );
}

/** How a run can end (a pause is not an end). */
export type FinalStop = Exclude<Stop, { reason: 'PAUSED' }>;
