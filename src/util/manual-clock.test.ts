import { describe, expect, it } from 'vitest';
import { realClock } from './clock.js';
import { ManualClock } from './testing/manual-clock.js';

describe('ManualClock', () => {
  it('wakes sleeps only when advanced past their end, earliest first', async () => {
    const clock = new ManualClock(1_000);
    const woke: string[] = [];
    const long = clock.sleep(500).then(() => woke.push('long'));
    const short = clock.sleep(100).then(() => woke.push('short'));
    clock.advance(99);
    await Promise.resolve();
    expect(woke).toEqual([]);
    expect(clock.pending).toBe(2);
    clock.advance(401);
    await Promise.all([long, short]);
    expect(woke).toEqual(['short', 'long']);
    expect(clock.now()).toBe(1_500);
    expect(clock.pending).toBe(0);
  });

  it('rejects a sleep with the signal reason, before or during the wait', async () => {
    const clock = new ManualClock();
    const reason = new Error('stop');
    await expect(clock.sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = clock.sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(clock.pending).toBe(0);
  });

  it('tells when code reached its wait, and releases a paced loop step by step', async () => {
    const clock = new ManualClock();
    const steps: number[] = [];
    const stop = new AbortController();
    const loop = (async () => {
      for (;;) {
        await clock.sleep(1_000, stop.signal);
        steps.push(clock.now());
      }
    })().catch(() => 'stopped');
    await clock.release(2, 1_000);
    await clock.waiting();
    expect(steps).toHaveLength(2);
    stop.abort();
    expect(await loop).toBe('stopped');
  });
});

describe('realClock', () => {
  it('reads the system time and ends a sleep on abort', async () => {
    const before = Date.now();
    expect(realClock.now()).toBeGreaterThanOrEqual(before);
    const controller = new AbortController();
    const waiting = realClock.sleep(60_000, controller.signal, { background: true });
    controller.abort(new Error('enough'));
    await expect(waiting).rejects.toThrow('enough');
    await realClock.sleep(1);
  });
});
