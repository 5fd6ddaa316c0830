import { TimeoutError } from '../errors/cadre-error.js';
import { realClock, type Clock } from './clock.js';

/**
 * Milliseconds left of `totalMs` since `startMs` (performance.now() time).
 * Throws TimeoutError naming the phase when nothing is left, so a phase
 * never starts without time to run.
 */
export function remainingTime(startMs: number, totalMs: number, phase: string): number {
  const left = totalMs - (performance.now() - startMs);
  if (left <= 0)
    throw new TimeoutError(`No time left for ${phase} (budget ${Math.round(totalMs)} ms).`);
  return left;
}

/**
 * Runs `task` with a signal that aborts on the caller's signal or after
 * `timeoutMs`; a timeout rejects with `onTimeout()`, a cancellation with the
 * caller's reason. The timeout waits on `clock` (a test steps a ManualClock).
 */
export async function withTimeoutAndCancellation<T>(
  task: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  signal: AbortSignal,
  onTimeout: () => Error = () => new TimeoutError(`Timed out after ${Math.round(timeoutMs)} ms.`),
  clock: Pick<Clock, 'sleep'> = realClock,
): Promise<T> {
  signal.throwIfAborted();
  const timer = new AbortController();
  const settled = new AbortController();
  clock.sleep(Math.max(0, timeoutMs), settled.signal).then(
    () => timer.abort(onTimeout()),
    () => undefined,
  );
  const combined = AbortSignal.any([signal, timer.signal]);
  try {
    return await new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(combined.reason as Error);
      combined.addEventListener('abort', onAbort, { once: true });
      task(combined)
        .then(resolve, reject)
        .finally(() => combined.removeEventListener('abort', onAbort));
    });
  } finally {
    settled.abort();
  }
}
