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
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
