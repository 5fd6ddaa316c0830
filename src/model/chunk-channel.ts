/**
 * Turns callbacks into an async iterable: a producer pushes values and
 * finally ends (or fails); the consumer reads them in order.
 */
export interface ChunkChannel<T> extends AsyncIterable<T> {
  push(value: T): void;
  end(error?: unknown): void;
}

export function chunkChannel<T>(): ChunkChannel<T> {
  const queued: T[] = [];
  let done = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  return {
    push(value) {
      if (done) return;
      queued.push(value);
      notify();
    },
    end(error) {
      if (done) return;
      done = true;
      if (error !== undefined) failure = { error };
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = queued.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (done) {
          if (failure) throw failure.error;
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
