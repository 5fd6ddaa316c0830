import type { Clock } from '../clock.js';

interface Sleeper {
  at: number;
  wake: () => void;
}

/**
 * A clock that moves only when told: `advance` wakes the sleeps that fall
 * due, `waiting` resolves once the code under test has reached a sleep. Tests
 * use it to cross minutes of timeouts and sweeps without waiting for them.
 */
export class ManualClock implements Clock {
  private time: number;
  private readonly sleepers: Sleeper[] = [];
  private readonly watchers: Array<() => void> = [];

  constructor(start = Date.parse('2026-01-01T00:00:00.000Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const sleeper: Sleeper = {
        at: this.time + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.remove(sleeper);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      for (const notify of this.watchers.splice(0)) notify();
    });
  }

  /** Sleeps not yet woken or aborted. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Moves time on by `ms` and wakes every sleep due by then, earliest first. */
  advance(ms: number): void {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.at <= this.time).sort((a, b) => a.at - b.at);
    for (const sleeper of due) {
      this.remove(sleeper);
      sleeper.wake();
    }
  }

  /**
   * Lets `times` sleeps end one after another, each as soon as it starts: a
   * stream paced on this clock goes that many steps, then stands still.
   */
  async release(times: number, stepMs: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      await this.waiting();
      this.advance(stepMs);
    }
  }

  /** Resolves once at least `count` sleeps are waiting: the code under test got to its wait. */
  async waiting(count = 1): Promise<void> {
    while (this.sleepers.length < count)
      await new Promise<void>((resolve) => this.watchers.push(resolve));
  }

  private remove(sleeper: Sleeper): void {
    const i = this.sleepers.indexOf(sleeper);
    if (i >= 0) this.sleepers.splice(i, 1);
    for (const notify of this.watchers.splice(0)) notify();
  }
}
