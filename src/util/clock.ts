/**
 * Time as code reads it and waits on it. Production code takes one (default
 * `realClock`) where it waits or ages something, so a test can step a
 * `ManualClock` instead of sleeping through real seconds.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal, options?: SleepOptions): Promise<void>;
}

export interface SleepOptions {
  /** The wait alone does not keep the process alive (a periodic sweep in the background). */
  background?: boolean;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal, options = {}) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (options.background) timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
