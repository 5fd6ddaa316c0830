import type { CadreEvent } from '../../events/types.js';

export interface CoalescerOptions {
  /** Most characters one merged delta carries. */
  maxChars: number;
  /** Longest a delta is held back waiting for the next piece. */
  waitMs: number;
  /** Where every event goes, merged deltas included, in order. */
  emit: (event: CadreEvent) => void;
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
  let held: CadreEvent | undefined;
  let pieces: string[] = [];
  let length = 0;
  let timer: NodeJS.Timeout | undefined;

  const release = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
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
      const text = deltaText(event);
      if (text === undefined) {
        release();
        options.emit(event);
        return;
      }
      if (held && !(sameStream(held, event) && length + text.length <= options.maxChars)) release();
      if (!held) {
        held = event;
        timer = setTimeout(release, options.waitMs);
        timer.unref();
      }
      pieces.push(text);
      length += text.length;
      if (length >= options.maxChars) release();
    },
    release,
    discard() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      held = undefined;
      pieces = [];
      length = 0;
    },
  };
}

function deltaText(event: CadreEvent): string | undefined {
  if (event.type !== 'text_delta' && event.type !== 'thought_delta') return undefined;
  return typeof event.data.text === 'string' ? event.data.text : undefined;
}

function sameStream(a: CadreEvent, b: CadreEvent): boolean {
  return a.type === b.type && a.executionId === b.executionId;
}
