export interface SlowClientLimits {
  /** Past this many waiting bytes the client must keep taking lines, or it is cut off. */
  readonly softBytes: number;
  /** Past this many it is cut off at once, however fast it reads. */
  readonly hardBytes: number;
  /** How long a client past the soft limit may go without taking a line. */
  readonly stallMs: number;
}

/**
 * 8 MiB may wait for a client that has stopped reading; a client that reads
 * may lag further, since a run can write faster than one turn of the event
 * loop lets any socket drain (a scripted model streams a 10 MB answer
 * without once giving way to I/O), up to a hard 32 MiB.
 */
export const SLOW_CLIENT_LIMITS: SlowClientLimits = {
  softBytes: 8 * 1024 * 1024,
  hardBytes: 32 * 1024 * 1024,
  stallMs: 5_000,
};

export interface SlowClientGuard {
  /** Whether a line of `weight` may be queued: false when the client is to be cut off now. */
  admits(weight: number): boolean;
  /** The client took a line off the queue. */
  progressed(): void;
  /** The stream is over: no more watching. */
  stop(): void;
}

/**
 * Keeps what waits for one client bounded. `waiting` is what its queue
 * weighs now; `onStalled` runs when it has stayed past the soft limit for
 * `stallMs` without taking a line.
 */
export function slowClientGuard(
  waiting: () => number,
  onStalled: () => void,
  limits: SlowClientLimits = SLOW_CLIENT_LIMITS,
): SlowClientGuard {
  let timer: NodeJS.Timeout | undefined;
  let moved = false;
  const watch = (): void => {
    moved = false;
    timer = setTimeout(() => {
      timer = undefined;
      if (waiting() <= limits.softBytes) return;
      if (moved) watch();
      else onStalled();
    }, limits.stallMs);
    // A watch alone must not keep the process up.
    timer.unref();
  };
  return {
    admits(weight) {
      const after = waiting() + weight;
      if (after > limits.hardBytes) return false;
      if (after > limits.softBytes && timer === undefined) watch();
      return true;
    },
    progressed() {
      moved = true;
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
