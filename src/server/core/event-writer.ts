import type { CadreEvent } from '../../events/types.js';
import type { Store } from '../../store/types.js';

/**
 * Persists a run's events in emission order without blocking the loop.
 * Events emitted together are written in one batch (one transaction), and
 * batches are chained so order holds; `flush()` waits for all of them.
 */
export function eventWriter(
  store: Store,
  runId: string,
  /** After each stored batch: wakes readers attached to the run. */
  onStored: () => void = () => undefined,
): { write(event: CadreEvent): void; flush(): Promise<void> } {
  let buffer: CadreEvent[] = [];
  let chain: Promise<unknown> = Promise.resolve();
  let scheduled = false;
  let failure: unknown;
  const drain = (): void => {
    scheduled = false;
    const batch = buffer;
    buffer = [];
    if (batch.length === 0) return;
    chain = chain
      .then(() => store.appendEvents(runId, batch))
      .then(onStored)
      .catch((error: unknown) => (failure ??= error));
  };
  return {
    write(event) {
      buffer.push(event);
      if (scheduled) return;
      scheduled = true;
      setImmediate(drain);
    },
    async flush() {
      drain();
      await chain;
      if (failure) throw failure;
    },
  };
}
