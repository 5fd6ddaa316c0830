import { setTimeout as delay } from 'node:timers/promises';

/** How long to wait before retrying something that failed because the database was away. */
export interface RetryDelay {
  /** The wait before the first retry. */
  readonly initialMs: number;
  /** The longest wait: bounds how late a retry notices the database is back. */
  readonly maxMs: number;
}

export const STORE_RETRY: RetryDelay = { initialMs: 100, maxMs: 2_000 };

/**
 * The wait before retry number `attempt` (0-based): doubling up to `maxMs`,
 * less up to a fifth at random, so processes that lost the database
 * together do not all come back in the same instant.
 */
export function retryDelayMs(attempt: number, delay: RetryDelay = STORE_RETRY): number {
  const full = Math.min(delay.maxMs, delay.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(full * (1 - Math.random() * 0.2));
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: callers check the signal). */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (error) {
    // Node rejects with its AbortError on abort; the retry loops read the signal instead.
    if (!signal?.aborted) throw error;
  }
}
