import type { CadreEvent } from '../../events/types.js';
import type { OwnedEvents } from '../../store/types.js';

/** A run's events numbered but not stored yet, and the timer that flushes them. */
export interface PendingEvents {
  /** Numbers the event (the run's next seq) and keeps it for the next batch. */
  add(event: CadreEvent): CadreEvent;
  /** The events so far as one batch, numbered from its first; the flush timer stops. */
  take(): OwnedEvents;
  readonly size: number;
  /** Calls `flush` `flushMs` from now, unless a flush is already due or `stop` was called. */
  schedule(): void;
  /** Drops what is pending: no timer is set again. */
  stop(): void;
}

/** Numbering starts after `eventSeq`, the last seq the store holds. */
export function pendingEvents(options: {
  runId: string;
  eventSeq: number;
  flushMs: number;
  flush: () => void;
}): PendingEvents {
  const { runId } = options;
  let nextSeq = options.eventSeq + 1;
  let events: CadreEvent[] = [];
  let firstSeq = nextSeq;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const take = (): OwnedEvents => {
    const batch = { firstSeq, events };
    events = [];
    firstSeq = nextSeq;
    if (timer) clearTimeout(timer);
    timer = undefined;
    return batch;
  };
  return {
    add(event) {
      const numbered = { ...event, runId, seq: nextSeq++ };
      events.push(numbered);
      return numbered;
    },
    take,
    get size() {
      return events.length;
    },
    schedule() {
      if (timer || stopped) return;
      timer = setTimeout(options.flush, options.flushMs);
      timer.unref();
    },
    stop() {
      stopped = true;
      take();
    },
  };
}
