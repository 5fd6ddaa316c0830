import type { RunChange, Store } from '../../store/types.js';

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

export async function createRunChanges(store: Store): Promise<RunChanges> {
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
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          const current = waiters.get(target);
          current?.delete(done);
          if (current?.size === 0) waiters.delete(target);
          resolve();
        };
        const timer = setTimeout(done, pollMs);
        set.add(done);
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
