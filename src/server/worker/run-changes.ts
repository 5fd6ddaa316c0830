import type { RunChange, Store } from '../../store/types.js';
import { realClock, type Clock } from '../../util/clock.js';

/**
 * Wake-ups for whoever waits on a run (attached requests) or on the queue
 * (workers). Changes made in this process are published directly; changes
 * made by other processes arrive through the store's subscription
 * (PostgreSQL LISTEN/NOTIFY). Waiters also poll, so a lost notification or a
 * store without subscriptions (SQLite shared by processes) only costs latency.
 */
export interface RunChanges {
  publish(change: RunChange): void;
  /** Resolves on a change to this run (or the queue, with `queue`), after `pollMs`, or on abort. */
  next(target: string | typeof QUEUE, pollMs: number, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

export const QUEUE = Symbol('queue');

export interface RunChangesOptions {
  /** What the polls wait on (default the real clock; tests step a ManualClock). */
  clock?: Clock;
}

export async function createRunChanges(
  store: Store,
  options: RunChangesOptions = {},
): Promise<RunChanges> {
  const clock = options.clock ?? realClock;
  const waiters = new Map<string | typeof QUEUE, Set<() => void>>();
  const wake = (key: string | typeof QUEUE): void => {
    const set = waiters.get(key);
    if (!set) return;
    waiters.delete(key);
    for (const done of set) done();
  };
  const publish = (change: RunChange): void => {
    switch (change.kind) {
      case 'queue':
        return wake(QUEUE);
      case 'run':
        return wake(change.runId);
      case 'resync':
        // What changed while notifications were lost is unknown: every waiter looks again.
        for (const key of [...waiters.keys()]) wake(key);
        return;
      default:
        return change satisfies never;
    }
  };
  // Subscribing is best effort: without it every waiter still polls.
  const unsubscribe = await store.events.subscribe?.(publish).catch(() => undefined);
  return {
    publish,
    next(target, pollMs, signal) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        let set = waiters.get(target);
        if (!set) waiters.set(target, (set = new Set()));
        // Ends the poll's sleep once anything else wakes this waiter.
        const poll = new AbortController();
        const done = (): void => {
          poll.abort();
          signal?.removeEventListener('abort', done);
          const current = waiters.get(target);
          current?.delete(done);
          if (current?.size === 0) waiters.delete(target);
          resolve();
        };
        set.add(done);
        void clock.sleep(pollMs, poll.signal).then(done, () => undefined);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    async close() {
      await unsubscribe?.();
      for (const set of waiters.values()) for (const wake of set) wake();
      waiters.clear();
    },
  };
}
