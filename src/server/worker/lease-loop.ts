import { retryDelayMs } from '../../store/retry-delay.js';
import type { ServerContext } from '../core/server-context.js';
import { leaseNextRun, type LeaseAttempt } from './lease/lease-next-run.js';
import { QUEUE, type RunChanges } from './run-changes.js';
import type { RunWorkerOptions } from './worker-types.js';
import type { WorkerState } from './worker-state.js';

/**
 * Leases runs while there is room and drives each (`drive`), until the
 * worker stops; waits for a queued run, or for room, in between.
 */
export async function runLeaseLoop(
  ctx: ServerContext,
  changes: RunChanges,
  options: RunWorkerOptions,
  state: WorkerState,
  drive: (leased: Extract<LeaseAttempt, { kind: 'leased' }>) => void,
): Promise<void> {
  const { stopping, wakeups } = state;
  // Consecutive failures to reach the store: the wait before the next try doubles.
  let failures = 0;
  while (!stopping.signal.aborted) {
    if (state.driving.size >= options.concurrency) {
      await wakeups.waitForRoom();
      continue;
    }
    // Listen before looking: a run queued while the lease runs still wakes the next wait.
    const woken = wakeups.nextQueued();
    const attempt = await leaseNextRun(ctx, state, options.leaseMs);
    if (attempt.kind === 'unreachable') {
      // The store is unreachable (or closed): report and retry with backoff, never spin.
      options.onError?.(attempt.error, '');
      await changes.next(QUEUE, retryDelayMs(failures++), stopping.signal);
      continue;
    }
    failures = 0;
    if (stopping.signal.aborted) {
      // Leased while stopping: hand it straight back.
      if (attempt.kind === 'leased')
        await ctx.store.queue
          .expireLeases([{ runId: attempt.leased.run.id, owner: attempt.owner }])
          .catch(() => undefined);
      return;
    }
    if (attempt.kind === 'leased') {
      drive(attempt);
      continue;
    }
    await woken;
  }
}
