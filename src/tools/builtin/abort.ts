import { CancelledError } from '../../errors/index.js';

/** Tools check this before work and inside loops so a cancelled run stops promptly. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new CancelledError('The tool call was cancelled.');
}
