import { describe, expect, it } from 'vitest';
import { CancelledError, TimeoutError } from '../errors/cadre-error.js';
import { ManualClock } from './testing/manual-clock.js';
import { Semaphore } from './semaphore.js';
import { remainingTime, withTimeoutAndCancellation } from './time-budget.js';

const sleep = (ms: number, signal: AbortSignal): Promise<string> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(() => resolve('done'), ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason as Error)), {
      once: true,
    });
  });

describe('time budgets', () => {
  it('remainingTime gives what is left and refuses a phase with nothing left', () => {
    const start = performance.now();
    expect(remainingTime(start, 10_000, 'synthesis')).toBeGreaterThan(9_000);
    expect(() => remainingTime(start - 20, 10, 'synthesis')).toThrow(/No time left for synthesis/);
  });

  it('withTimeoutAndCancellation resolves in time, times out with its error, and cancels with the caller', async () => {
    const caller = new AbortController();
    await expect(withTimeoutAndCancellation((s) => sleep(5, s), 1000, caller.signal)).resolves.toBe(
      'done',
    );
    await expect(
      withTimeoutAndCancellation(
        (s) => sleep(5000, s),
        20,
        caller.signal,
        () => new TimeoutError('phase late'),
      ),
    ).rejects.toThrow('phase late');
    setTimeout(() => caller.abort(new CancelledError()), 20);
    await expect(
      withTimeoutAndCancellation((s) => sleep(5000, s), 10_000, caller.signal),
    ).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('Semaphore', () => {
  it('never runs more than its limit at once and stops waiting on abort', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const task = () =>
      gate.run(async () => {
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 10));
        running--;
      });
    await Promise.all([task(), task(), task(), task(), task()]);
    expect(peak).toBe(2);

    const blocker = new Semaphore(1);
    let release: () => void = () => {};
    const held = blocker.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const waiting = blocker.run(() => Promise.resolve('ran'), controller.signal);
    controller.abort(new CancelledError());
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    release();
    await held;
    await expect(blocker.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
  it('withTimeoutAndCancellation times out on the clock it is given, not before', async () => {
    const clock = new ManualClock();
    const never = (s: AbortSignal) =>
      new Promise<string>((_, reject) =>
        s.addEventListener('abort', () => reject(s.reason as Error), { once: true }),
      );
    const settled = withTimeoutAndCancellation(
      never,
      60_000,
      new AbortController().signal,
      undefined,
      clock,
    );
    await clock.waiting();
    clock.advance(59_999);
    expect(clock.pending).toBe(1);
    clock.advance(1);
    await expect(settled).rejects.toThrow(TimeoutError);
    expect(clock.pending).toBe(0);
  });
});
