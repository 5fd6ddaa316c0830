import { describe, expect, it } from 'vitest';
import { realClock } from './clock.js';

describe('realClock.sleep', () => {
  it('resolves after the wait', async () => {
    await expect(realClock.sleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });

  it("rejects with the signal's own reason, before or during the wait", async () => {
    const reason = new Error('run cancelled');
    await expect(realClock.sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = realClock.sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});
