import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CancelledError } from '../../errors/cadre-error.js';
import { storeUnavailableIn } from '../../errors/store-error.js';
import { retryDelayMs } from '../../store/retry-delay.js';
import type { Claim, Lease } from '../../store/types.js';
import type { CadreEvent } from '../../events/types.js';
import type { Message } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { Run } from '../../store/types.js';
import { driveRun, runOf, type DriveResult, type DriveStart } from '../core/drive-run.js';
import { runRecorder, type RunRecorder, type UnstoredRun } from '../core/run-recorder.js';
import type { ServerContext } from '../core/server-context.js';
import { QUEUE, type RunChanges } from './run-changes.js';

export interface RunWorkerOptions {
  /** How long a claim lasts without a heartbeat; another process takes the run over after it. */
  leaseMs: number;
  /**
   * A run started in this process is stored this long after it starts, or
   * before its first side effect, or when it parks, whichever comes first; one
   * that ends sooner is stored whole, in one transaction. 0 stores every run
   * as it starts.
   */
  storeAfterMs: number;
  /** Events of a stored run reach the store (and followers elsewhere) at most this long after they happen. */
  eventFlushMs: number;
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
   * Drives a run started by a request in this process, without a round trip
   * through the queue; undefined when this worker is full or stopping (the
   * caller queues the run instead).
   */
  adopt(start: AdoptRun): LocalRun | undefined;
  /** Whether `adopt` would take a run now (asked before preparing one). */
  hasRoom(): boolean;

  /**
   * Stops claiming and waits up to `graceMs` for runs in flight to finish
   * their step; what is left is handed over (leases expired) and abandoned.
   */
  drain(graceMs: number): Promise<{ finished: number; handedOver: number }>;
}

type WorkerStart = Extract<DriveStart, { kind: 'claimed' }> | ({ kind: 'new' } & AdoptRun);

/** A run a request started here: what it is, and who follows it. */
export interface AdoptRun {
  run: Run;
  definition: AgentDefinition;
  unstored: UnstoredRun;
  history: Message[];
  /** The thread seq of each history message (see ThreadHistory). */
  historySeqs?: readonly number[];
  record: boolean;
  /** Store it now, before anything else: its id is about to leave this process. */
  storeFirst: boolean;
  /** Each event as it happens. */
  onEvent?: (event: CadreEvent) => void;
}

/** A run driven by this process, as its starter follows it. */
export interface LocalRun {
  readonly runId: string;
  /** Settled here (finished or parked), or handed to the store to follow. */
  readonly result: Promise<DriveResult>;
  /** Resolves once the run is stored, when it was started with `storeFirst`; at once otherwise. */
  readonly ready: Promise<void>;
  /** The last of its events the store holds. */
  storedSeq(): number;
}

interface Driving {
  /** This claim's owner token: unique, so a re-claim by this same process is another owner. */
  owner: string;
  controller: AbortController;
  abandoned: boolean;
  recorder: RunRecorder;
  done: Promise<DriveResult>;
  ready: Promise<void>;
  /** Why a run started here could not be stored (the starter hears it). */
  storeError?: unknown;
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
  /**
   * Runs whose step failed because the store was away: stored, owned by a
   * claim that no longer drives them. Their leases are ended as soon as the
   * store answers again, so they are taken over (from their checkpoint, an
   * interrupted effect never run twice) at once rather than after the lease.
   */
  const handBack: Lease[] = [];

  const abandon = (entry: Driving, reason: string): void => {
    if (entry.abandoned) return;
    entry.abandoned = true;
    // Whatever the run still emits here is not this process's to record.
    entry.recorder.close();
    entry.controller.abort(new CancelledError(reason));
  };

  const drive = (start: WorkerStart, claimOwner: string): Driving => {
    const run = runOf(start);
    const runId = run.id;
    // This process took over its own run after a stall: the older drive stops, unrecorded.
    const stale = driving.get(runId);
    if (stale) abandon(stale, 'This run was taken over after a stall.');
    const controller = new AbortController();
    const entry: Driving = {
      owner: claimOwner,
      controller,
      abandoned: false,
      recorder: runRecorder({
        store: ctx.store,
        runId,
        owner: claimOwner,
        leaseMs: options.leaseMs,
        eventSeq: run.eventSeq,
        ...(start.kind === 'new'
          ? { unstored: start.unstored, ...(start.onEvent ? { onEvent: start.onEvent } : {}) }
          : {}),
        flushMs: options.eventFlushMs,
        changed: () => changes.publish({ kind: 'run', runId }),
        lost: () => abandon(entry, 'This process lost the run to another.'),
      }),
      done: Promise.resolve({ kind: 'elsewhere' }),
      ready: Promise.resolve(),
    };
    // A run that cannot be stored stops here: it must not go on unrecorded.
    const storeOrStop = (): Promise<void> =>
      entry.recorder.store().catch((error: unknown) => {
        entry.storeError ??= error;
        abandon(entry, 'The run could not be stored.');
        throw error;
      });
    // First in the recorder's queue, so nothing the run does is written before it.
    if (start.kind === 'new' && start.storeFirst) entry.ready = storeOrStop();
    // Otherwise a run started here is stored once it has run for a while, even if it has done nothing yet.
    const storeLater =
      start.kind === 'new' && !start.storeFirst
        ? setTimeout(() => void storeOrStop().catch(() => undefined), options.storeAfterMs)
        : undefined;
    storeLater?.unref();
    entry.done = driveRun(ctx, start, entry.recorder, {
      signal: controller.signal,
      abandoned: () => entry.abandoned,
      owner: claimOwner,
    })
      .catch((error: unknown): DriveResult => {
        options.onError?.(error, runId);
        if (entry.recorder.stored() && storeUnavailableIn(error)) {
          abandon(entry, 'The store was unavailable.');
          handBack.push({ runId, owner: claimOwner });
          nudge();
        }
        return entry.recorder.stored()
          ? { kind: 'elsewhere' }
          : { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
      })
      // A run never stored is nowhere else to follow: its starter hears why (the store's error
      // as the cause, so an outage is answered as one).
      .then((result): DriveResult =>
        result.kind === 'elsewhere' && !entry.recorder.stored()
          ? {
              kind: 'failed',
              error: new Error('The run stopped before it could be stored.', {
                cause: entry.storeError,
              }),
            }
          : result,
      )
      .finally(() => {
        clearTimeout(storeLater);
        if (driving.get(runId) === entry) driving.delete(runId);
        // Only a full worker needs to hear of room: otherwise each run's end would cost a claim.
        if (waitingForRoom) nudge();
      });
    driving.set(runId, entry);
    return entry;
  };

  /** Resolvers waiting for a nudge: a run queued here, room freed, or stopping. */
  const nudges = new Set<() => void>();
  const nudge = (): void => {
    for (const resolve of nudges) resolve();
    nudges.clear();
  };
  const nudged = (): Promise<void> => new Promise<void>((resolve) => nudges.add(resolve));
  let waitingForRoom = false;
  // One wait on the queue at a time, kept across claims: a fresh one per claim would pile up.
  let listening: Promise<void> | undefined;
  const listen = (): Promise<void> => {
    if (listening) return listening;
    let woken = (): void => undefined;
    const nudge = new Promise<void>((resolve) => nudges.add((woken = resolve)));
    listening = Promise.race([changes.next(QUEUE, options.pollMs, stopping.signal), nudge]).then(
      () => {
        // Ended by a poll: its nudge resolver goes too, or an idle worker would gather one a poll.
        nudges.delete(woken);
        listening = undefined;
      },
    );
    return listening;
  };

  /** Ends the leases in `handBack`; they are kept for the next try while the store is away. */
  const handOver = async (): Promise<void> => {
    if (handBack.length === 0) return;
    const leases = handBack.splice(0);
    await ctx.store.queue.expireLeases(leases).catch((error: unknown) => {
      handBack.push(...leases);
      throw error;
    });
  };

  const claimLoop = async (): Promise<void> => {
    // Consecutive failures to reach the store: the wait before the next try doubles.
    let failures = 0;
    while (!stopping.signal.aborted) {
      if (driving.size >= options.concurrency) {
        waitingForRoom = true;
        await nudged();
        waitingForRoom = false;
        continue;
      }
      // Listen before looking: a run queued while the claim runs still wakes the next wait.
      const woken = listen();
      let claim: Claim | undefined;
      const claimOwner = `${owner}:${randomUUID().slice(0, 8)}`;
      try {
        await handOver();
        claim = await ctx.store.queue.claim(claimOwner, options.leaseMs);
        failures = 0;
      } catch (error) {
        // The store is unreachable (or closed): report and retry with backoff, never spin.
        options.onError?.(error, '');
        await changes.next(QUEUE, retryDelayMs(failures++), stopping.signal);
        continue;
      }
      if (stopping.signal.aborted) {
        // Claimed while stopping: hand it straight back.
        if (claim)
          await ctx.store.queue
            .expireLeases([{ runId: claim.run.id, owner: claimOwner }])
            .catch(() => undefined);
        return;
      }
      if (claim) {
        drive({ kind: 'claimed', claim }, claimOwner);
        continue;
      }
      await woken;
    }
  };

  const heartbeat = setInterval(
    () => {
      // The entries as they are now: a run re-claimed meanwhile is judged by its own renewal.
      // A run not stored yet has no lease to renew.
      const renewing = [...driving.entries()].filter(
        ([, e]) => !e.abandoned && e.recorder.stored(),
      );
      if (renewing.length === 0) return;
      ctx.store.queue
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

  const hasRoom = (): boolean => !stopping.signal.aborted && driving.size < options.concurrency;

  const localRun = (runId: string, entry: Driving): LocalRun => ({
    runId,

    result: entry.done,
    ready: entry.ready,
    storedSeq: () => entry.recorder.storedSeq(),
  });

  const loop = claimLoop();

  return {
    owner,
    wake: () => {
      nudge();
      changes.publish({ kind: 'queue' });
    },
    cancel: cancelRun,
    hasRoom,
    adopt(start) {
      if (!hasRoom()) return undefined;
      const entry = drive({ kind: 'new', ...start }, `${owner}:${randomUUID().slice(0, 8)}`);
      return localRun(start.run.id, entry);
    },
    async drain(graceMs) {
      stopping.abort();
      nudge();
      await loop;
      const inFlight = [...driving.values()];
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(inFlight.map((d) => d.done)), graceOver]);
      clearTimeout(timer);
      const left = [...driving.entries()];
      // What the next owner needs: runs started here are stored, and every event so far written
      // (it numbers its own from where the log ends).
      await Promise.all(
        left.map(([, e]) =>
          (e.recorder.stored() ? e.recorder.flush() : e.recorder.store()).catch(() => undefined),
        ),
      );
      // Leases first, then stop recording: a run that ends in between is still written.
      await ctx.store.queue
        .expireLeases([
          ...left.map(([runId, e]) => ({ runId, owner: e.owner })),
          ...handBack.splice(0),
        ])
        .catch(() => undefined);
      for (const [, entry] of left) abandon(entry, 'This process is shutting down.');
      clearInterval(heartbeat);
      return { finished: inFlight.length - left.length, handedOver: left.length };
    },
  };
}
