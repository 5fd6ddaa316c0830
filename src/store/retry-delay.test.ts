import { describe, expect, test } from 'vitest';
import { pause, retryDelayMs } from './retry-delay.js';

describe('retryDelayMs', () => {
  test('doubles from initialMs up to maxMs, less at most a fifth', () => {
    const delay = { initialMs: 100, maxMs: 1_000 };
    for (const [attempt, full] of [
      [0, 100],
      [1, 200],
      [3, 800],
      [4, 1_000],
      [60, 1_000],
    ] as const) {
      const ms = retryDelayMs(attempt, delay);
      expect(ms).toBeLessThanOrEqual(full);
      expect(ms).toBeGreaterThanOrEqual(full * 0.8);
    }
  });
});

describe('pause', () => {
  test('resolves once the time has passed', async () => {
    const started = performance.now();
    await pause(30);
    // Timers may fire a millisecond early by rounding.
    expect(performance.now() - started).toBeGreaterThanOrEqual(28);
  });

  test('resolves (never rejects) as soon as the signal aborts, and at once when it already has', async () => {
    const stop = new AbortController();
    const waiting = pause(60_000, stop.signal);
    stop.abort(new Error('stopping'));
    await expect(waiting).resolves.toBeUndefined();
    await expect(pause(60_000, stop.signal)).resolves.toBeUndefined();
  });
});
