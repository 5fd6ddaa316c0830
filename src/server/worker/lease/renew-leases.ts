import { realClock, type Clock } from '../../../util/clock.js';
import type { ServerContext } from '../../core/server-context.js';
import { abandon, type WorkerState } from '../worker-state.js';

/**
 * The heartbeat: renews the leases of the stored runs in flight here at a
 * third of the lease, in one statement. A run whose lease was lost (taken
 * over after a stall) is abandoned here; a run a person asked to cancel is
 * stopped. Returns the stop.
 */
export function keepLeases(
  ctx: ServerContext,
  state: WorkerState,
  options: {
    leaseMs: number;
    cancel: (runId: string) => void;
    onError?: (error: unknown, runId: string) => void;
    /** What the heartbeat waits on (default the real clock). */
    clock?: Clock;
  },
): () => void {
  const clock = options.clock ?? realClock;
  const stop = new AbortController();
  const beat = (): void => {
    // The entries as they are now: a run re-leased meanwhile is judged by its own renewal.
    // A run not stored yet has no lease to renew.
    const renewing = [...state.driving.entries()].filter(
      ([, e]) => !e.abandoned && e.writer.stored(),
    );
    if (renewing.length === 0) return;
    ctx.store.queue
      .renewLeases(
        renewing.map(([runId, e]) => ({ runId, owner: e.owner })),
        options.leaseMs,
      )
      .then(({ kept, cancelRequested }) => {
        for (const [id, entry] of renewing)
          // Another owner holds it now: stop here without writing anything.
          if (!kept.includes(id)) abandon(entry, 'This process lost the run to another.');
        for (const id of cancelRequested) options.cancel(id);
      })
      .catch((error: unknown) => options.onError?.(error, ''));
  };
  const every = Math.max(50, Math.floor(options.leaseMs / 3));
  // In the background: the heartbeat alone does not keep the process alive. It ends on stop.
  void (async () => {
    for (;;) {
      await clock.sleep(every, stop.signal, { background: true });
      // A beat that throws must not end the heartbeat (as a timer's callback would not).
      try {
        beat();
      } catch (error) {
        options.onError?.(error, '');
      }
    }
  })().catch(() => undefined);
  return () => stop.abort();
}
