import { QUEUE, type RunChanges } from './run-changes.js';

/** What wakes a worker's lease loop. */
export interface Wakeups {
  /** Wakes it now: a run queued here, room freed, or stopping. */
  nudge(): void;
  /** Waits, the worker being full, until a run ends (or a nudge). */
  waitForRoom(): Promise<void>;
  /** A run ended here: wakes the loop only if it waits for room (else each end would cost a lease attempt). */
  roomFreed(): void;
  /** Waits for a queued run: a notification, a poll, or a nudge. */
  nextQueued(): Promise<void>;
}

export function createWakeups(changes: RunChanges, pollMs: number, signal: AbortSignal): Wakeups {
  /** Resolvers waiting for a nudge. */
  const nudges = new Set<() => void>();
  const nudge = (): void => {
    for (const resolve of nudges) resolve();
    nudges.clear();
  };
  let waitingForRoom = false;
  // One wait on the queue at a time, kept across leases: a fresh one per lease would pile up.
  let listening: Promise<void> | undefined;
  return {
    nudge,
    async waitForRoom() {
      waitingForRoom = true;
      await new Promise<void>((resolve) => nudges.add(resolve));
      waitingForRoom = false;
    },
    roomFreed() {
      if (waitingForRoom) nudge();
    },
    nextQueued() {
      if (listening) return listening;
      let woken = (): void => undefined;
      const nudged = new Promise<void>((resolve) => nudges.add((woken = resolve)));
      listening = Promise.race([changes.next(QUEUE, pollMs, signal), nudged]).then(() => {
        // Ended by a poll: its nudge resolver goes too, or an idle worker would gather one a poll.
        nudges.delete(woken);
        listening = undefined;
      });
      return listening;
    },
  };
}
