import type { ServerContext } from '../core/server-context.js';
import { runLeaseLoop } from './lease-loop.js';
import { drainWorker } from './drain-worker.js';
import { keepLeases } from './lease/renew-leases.js';
import { leaseOwner, workerOwner } from './lease/owner-token.js';
import type { RunChanges } from './run-changes.js';
import { startDrive } from './start-drive.js';
import { createWakeups } from './wakeups.js';
import { cancelDriving, hasRoom, type Driving, type WorkerState } from './worker-state.js';
import type { LocalRun, RunWorker, RunWorkerOptions, WorkerStart } from './worker-types.js';

/**
 * Leases queued runs (and runs whose owner's lease expired) and drives them.
 * A heartbeat renews the leases of the runs in flight at a third of the
 * lease; a run whose lease was lost (taken over after a stall) is abandoned
 * here, and a run flagged for cancellation is stopped.
 */
export function startRunWorker(
  ctx: ServerContext,
  changes: RunChanges,
  options: RunWorkerOptions,
): RunWorker {
  const stopping = new AbortController();
  const state: WorkerState = {
    owner: workerOwner(),
    driving: new Map(),
    stopping,
    handBack: [],
    wakeups: createWakeups(changes, options.pollMs, stopping.signal),
  };
  const drive = (start: WorkerStart, owner: string): Driving =>
    startDrive(ctx, changes, options, state, start, owner);
  const cancel = (runId: string): boolean => cancelDriving(state, runId);
  const stopHeartbeat = keepLeases(ctx, state, {
    leaseMs: options.leaseMs,
    cancel,
    ...(options.clock ? { clock: options.clock } : {}),
    onError: options.onError,
  });
  const loop = runLeaseLoop(ctx, changes, options, state, ({ leased, owner }) => {
    drive({ kind: 'leased', leased }, owner);
  });

  return {
    owner: state.owner,
    wake: () => {
      state.wakeups.nudge();
      changes.publish({ kind: 'queue' });
    },
    cancel,
    hasRoom: () => hasRoom(state, options.concurrency),
    adopt(start) {
      if (!hasRoom(state, options.concurrency)) return undefined;
      const entry = drive({ kind: 'new', ...start }, leaseOwner(state.owner));
      return localRun(start.run.id, entry);
    },
    async drain(graceMs) {
      const drained = await drainWorker(ctx, state, loop, graceMs);
      stopHeartbeat();
      return drained;
    },
  };
}

const localRun = (runId: string, entry: Driving): LocalRun => ({
  runId,
  result: entry.done,
  ready: entry.ready,
  storedSeq: () => entry.writer.storedSeq(),
});
