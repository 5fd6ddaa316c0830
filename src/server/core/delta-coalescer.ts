import type { CadreEvent, CadreEventOf } from '../../events/types.js';
import { realClock, type Clock } from '../../util/clock.js';

/** Why a held delta's wait ended early: it went out (or was dropped) before waitMs. */
const RELEASED = 'released';

export interface CoalescerOptions {
  /** Most characters one merged delta carries. */
  maxChars: number;
  /** Longest a delta is held back waiting for the next piece. */
  waitMs: number;
  /** Where every event goes, merged deltas included, in order. */
  emit: (event: CadreEvent) => void;
  /** What the wait for the next piece runs on (default the real clock). */
  clock?: Clock;
  /**
   * Whether anyone sees an event before the next write releases it (default
   * yes). When nobody does, a held delta sets no timer: the write takes it.
   */
  watched?: () => boolean;
}

export interface DeltaCoalescer {
  offer(event: CadreEvent): void;
  /** Passes on the delta being held, if any (before anything is written). */
  release(): void;
  /** Drops the delta being held: nothing more is delivered. */
  discard(): void;
}

/**
 * Merges consecutive text (or thought) deltas of one execution into bounded
 * pieces before they are numbered: a long answer then costs hundreds of
 * events, not one per token, live and stored alike. The lines followers get
 * keep their shape; a piece waits at most `waitMs` for the next one.
 */
export function deltaCoalescer(options: CoalescerOptions): DeltaCoalescer {
  let held: Delta | undefined;
  let pieces: string[] = [];
  let length = 0;
  const clock = options.clock ?? realClock;
  /** Ends the wait of the delta being held. */
  let waiting: AbortController | undefined;
  const stopWaiting = (): void => {
    // A reason of our own: abort() without one builds a DOMException (and its stack) per delta.
    waiting?.abort(RELEASED);
    waiting = undefined;
  };

  /** Releases the delta just held once `waitMs` passes, unless it went out before. */
  const waitForNext = (): void => {
    const wait = (waiting = new AbortController());
    // In the background, as a piece never keeps the process alive; a wait that ended
    // just as another began leaves the new one alone.
    void clock.sleep(options.waitMs, wait.signal, { background: true }).then(
      () => waiting === wait && release(),
      () => undefined,
    );
  };

  const release = (): void => {
    stopWaiting();
    if (!held) return;
    const text = pieces.join('');
    const merged = { ...held, message: text, data: { ...held.data, text } };
    held = undefined;
    pieces = [];
    length = 0;
    options.emit(merged);
  };

  return {
    offer(event) {
      if (!isDelta(event)) {
        release();
        options.emit(event);
        return;
      }
      const text = event.data.text;
      if (held && !(sameStream(held, event) && length + text.length <= options.maxChars)) release();
      if (!held) {
        held = event;
        // Unwatched, it waits for the next write instead: no timer, signal and promise per delta.
        if (options.watched?.() !== false) waitForNext();
      }
      pieces.push(text);
      length += text.length;
      if (length >= options.maxChars) release();
    },
    release,
    discard() {
      stopWaiting();
      held = undefined;
      pieces = [];
      length = 0;
    },
  };
}

type Delta = CadreEventOf<'text_delta' | 'thought_delta'>;

function isDelta(event: CadreEvent): event is Delta {
  return (
    (event.type === 'text_delta' || event.type === 'thought_delta') &&
    typeof event.data.text === 'string'
  );
}

function sameStream(a: CadreEvent, b: CadreEvent): boolean {
  return a.type === b.type && a.executionId === b.executionId;
}
