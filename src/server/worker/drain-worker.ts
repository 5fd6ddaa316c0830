import type { ServerContext } from '../core/server-context.js';
import { abandon, type WorkerState } from './worker-state.js';

/**
 * Stops leasing (`loop` is the lease loop, ending) and waits up to
 * `graceMs` for runs in flight to finish their step; what is left is
 * stored, its leases expired (another process takes it over at once), and
 * abandoned here.
 */
export async function drainWorker(
  ctx: ServerContext,
  state: WorkerState,
  loop: Promise<void>,
  graceMs: number,
): Promise<{ finished: number; handedOver: number }> {
  state.stopping.abort();
  state.wakeups.nudge();
  await loop;
  const inFlight = [...state.driving.values()];
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.all(inFlight.map((d) => d.done)), graceOver]);
  clearTimeout(timer);
  const left = [...state.driving.entries()];
  // What the next owner needs: runs started here are stored, and every event so far written
  // (it numbers its own from where the log ends).
  await Promise.all(
    left.map(([, e]) =>
      (e.writer.stored() ? e.writer.flush() : e.writer.store()).catch(() => undefined),
    ),
  );
  // Leases first, then stop writing: a run that ends in between is still written.
  await ctx.store.queue
    .expireLeases([
      ...left.map(([runId, e]) => ({ runId, owner: e.owner })),
      ...state.handBack.splice(0),
    ])
    .catch(() => undefined);
  for (const [, entry] of left) abandon(entry, 'This process is shutting down.');
  return { finished: inFlight.length - left.length, handedOver: left.length };
}
