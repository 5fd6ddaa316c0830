import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const abortableSleep: Sleep = async (ms, signal) => {
  try {
    await delay(ms, undefined, { signal });
  } catch (error) {
    // Node rejects with its own AbortError; callers tell a cancel from a timeout by the reason.
    if (signal.aborted) throw signal.reason;
    throw error;
  }
};
