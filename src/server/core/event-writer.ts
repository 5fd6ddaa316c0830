import type { CadreEvent } from '../../events/types.js';
import type { Store } from '../../store/types.js';

/**
 * Persists a run's events in emission order without blocking the loop:
 * writes are chained, and `flush()` waits for all of them.
 */
export function eventWriter(
  store: Store,
  runId: string,
): { write(event: CadreEvent): void; flush(): Promise<void> } {
  let chain: Promise<unknown> = Promise.resolve();
  let failure: unknown;
  return {
    write(event) {
      chain = chain
        .then(() => store.appendEvents(runId, [event]))
        .catch((error: unknown) => (failure ??= error));
    },
    async flush() {
      await chain;
      if (failure) throw failure;
    },
  };
}
