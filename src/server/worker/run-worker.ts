import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CancelledError } from '../../errors/cadre-error.js';
import type { Claim } from '../../store/types.js';
import { driveRun } from '../core/drive-run.js';
import type { ServerContext } from '../core/server-context.js';
import { QUEUE, type RunChanges } from './run-changes.js';

export interface RunWorkerOptions {
  /** How long a claim lasts without a heartbeat; another process takes the run over after it. */
  leaseMs: number;
  /** How often an idle worker looks for queued runs when no notification woke it. */
  pollMs: number;
  /** Runs driven at once by this process. */
  concurrency: number;
  /** Reports a run that failed outside the loop (a store error); the run is left for takeover. */
  onError?: (error: unknown, runId: string) => void;
}

export interface RunWorker {
  readonly owner: string;
  /** Looks for work now (a run was just queued in this process). */
  wake(): void;
  /** Stops a run this process drives, as a person's cancel; false when it is not here. */
  cancel(runId: string): boolean;
  /**
   * Stops claiming and waits up to `graceMs` for runs in flight to finish
   * their step; what is left is handed over (leases expired) and abandoned.
   */
  drain(graceMs: number): Promise<{ finished: number; handedOver: number }>;
}

interface Driving {
  /** This claim's owner token: unique, so a re-claim by this same process is another owner. */
  owner: string;
  controller: AbortController;
  abandoned: boolean;
  done: Promise<void>;
}

/**
 * Claims queued runs (and runs whose owner's lease expired) and drives them.
 * A heartbeat renews the leases of the runs in flight at a third of the
 * lease; a run whose lease was lost (taken over after a stall) is abandoned
 * here, and a run flagged for cancellation is stopped.
 */
export function startRunWorker(
  ctx: ServerContext,
  changes: RunChanges,
  options: RunWorkerOptions,
): RunWorker {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const driving = new Map<string, Driving>();
  const stopping = new AbortController();
  let wakeUp: (() => void) | undefined;

  const abandon = (entry: Driving, reason: string): void => {
    if (entry.abandoned) return;
    entry.abandoned = true;
    entry.controller.abort(new CancelledError(reason));
  };

  const drive = (claim: Claim, claimOwner: string): void => {
    const runId = claim.run.id;
    // This process took over its own run after a stall: the older drive stops, unrecorded.
    const stale = driving.get(runId);
    if (stale) abandon(stale, 'This run was taken over after a stall.');
    const controller = new AbortController();
    const entry: Driving = {
      owner: claimOwner,
      controller,
      abandoned: false,
      done: Promise.resolve(),
    };
    entry.done = driveRun(ctx, claim, {
      signal: controller.signal,
      abandoned: () => entry.abandoned,
      changed: () => changes.publish({ kind: 'run', runId }),
      owner: claimOwner,
    })
      .catch((error: unknown) => options.onError?.(error, runId))
      .finally(() => {
        if (driving.get(runId) === entry) driving.delete(runId);
        wakeUp?.();
      });
    driving.set(runId, entry);
  };

  const claimLoop = async (): Promise<void> => {
    while (!stopping.signal.aborted) {
      if (driving.size >= options.concurrency) {
        await new Promise<void>((resolve) => (wakeUp = resolve));
        wakeUp = undefined;
        continue;
      }
      // Listen before looking: a run queued while the claim runs still wakes the next wait.
      const woken = Promise.race([
        changes.next(QUEUE, options.pollMs, stopping.signal),
        new Promise<void>((resolve) => (wakeUp = resolve)),
      ]);
      let claim: Claim | undefined;
      let claimOwner = owner;
      try {
        claimOwner = `${owner}:${randomUUID().slice(0, 8)}`;
        claim = await ctx.store.claimRun(claimOwner, options.leaseMs);
      } catch (error) {
        // The store is unreachable (or closed): report once per poll, never spin.
        options.onError?.(error, '');
        await changes.next(QUEUE, options.pollMs, stopping.signal);
        continue;
      }
      if (stopping.signal.aborted) {
        // Claimed while stopping: hand it straight back.
        if (claim)
          await ctx.store
            .expireLeases([{ runId: claim.run.id, owner: claimOwner }])
            .catch(() => undefined);
        return;
      }
      if (claim) {
        drive(claim, claimOwner);
        continue;
      }
      await woken;
      wakeUp = undefined;
    }
  };

  const heartbeat = setInterval(
    () => {
      // The entries as they are now: a run re-claimed meanwhile is judged by its own renewal.
      const renewing = [...driving.entries()].filter(([, e]) => !e.abandoned);
      if (renewing.length === 0) return;
      ctx.store
        .renewLeases(
          renewing.map(([runId, e]) => ({ runId, owner: e.owner })),
          options.leaseMs,
        )
        .then(({ kept, cancelRequested }) => {
          for (const [id, entry] of renewing)
            // Another owner holds it now: stop here without recording anything.
            if (!kept.includes(id)) abandon(entry, 'This process lost the run to another.');
          for (const id of cancelRequested) cancelRun(id);
        })
        .catch((error: unknown) => options.onError?.(error, ''));
    },
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  heartbeat.unref();

  const cancelRun = (runId: string): boolean => {
    const entry = driving.get(runId);
    if (!entry) return false;
    entry.controller.abort(new CancelledError('The run was cancelled.'));
    return true;
  };

  const loop = claimLoop();

  return {
    owner,
    wake: () => {
      wakeUp?.();
      changes.publish({ kind: 'queue' });
    },
    cancel: cancelRun,
    async drain(graceMs) {
      stopping.abort();
      wakeUp?.();
      await loop;
      const inFlight = [...driving.values()];
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(inFlight.map((d) => d.done)), graceOver]);
      clearTimeout(timer);
      const left = [...driving.entries()];
      // Leases first, then stop recording: a run that ends in between is still written.
      await ctx.store
        .expireLeases(left.map(([runId, e]) => ({ runId, owner: e.owner })))
        .catch(() => undefined);
      for (const [, entry] of left) abandon(entry, 'This process is shutting down.');
      clearInterval(heartbeat);
      return { finished: inFlight.length - left.length, handedOver: left.length };
    },
  };
}
