import type { Store } from '../store/types.js';

/**
 * `store` as a run service sees it, telling the test after each write a
 * run's recorder makes (the run stored, events written, the run paused,
 * finished or updated): the test looks again then, instead of polling the
 * database on a timer. Reads are not heard: a probe's own read wakes nothing.
 */
export function heardWrites(store: Store): { store: Store; next: () => Promise<void> } {
  let wrote = (): void => undefined;
  let written = new Promise<void>((resolve) => (wrote = resolve));
  const heard =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } finally {
        wrote();
        written = new Promise<void>((resolve) => (wrote = resolve));
      }
    };
  // Everything else (and the store's own state) comes from the real store underneath.
  const watched = Object.assign(Object.create(store) as Store, {
    queue: {
      ...store.queue,
      save: heard(store.queue.save),
      pause: heard(store.queue.pause),
      finish: heard(store.queue.finish),
    },
    runs: { ...store.runs, update: heard(store.runs.update) },
    events: { ...store.events, writeOwned: heard(store.events.writeOwned) },
  });
  return { store: watched, next: () => written };
}

/** The first value `probe` gives, looked for again after each write (`next` is asked before looking). */
export async function afterWrites<T>(
  next: () => Promise<void>,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  for (;;) {
    const write = next();
    const value = await probe();
    if (value !== undefined) return value;
    await write;
  }
}
