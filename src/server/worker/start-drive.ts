import { storeUnavailableIn } from '../../errors/store-error.js';
import { driveRun } from '../core/drive-run.js';
import { runOf, type DriveResult } from '../core/drive-types.js';
import { runWriter } from '../core/run-writer.js';
import type { ServerContext } from '../core/server-context.js';
import type { RunChanges } from './run-changes.js';
import type { RunWorkerOptions, WorkerStart } from './worker-types.js';
import { abandon, type Driving, type WorkerState } from './worker-state.js';

/**
 * Drives one run here under the lease held as `owner`: its writer, when a
 * run started here is stored, and what its follower hears once the step
 * ends. A step the store's outage stopped is handed back (see handBack).
 */
export function startDrive(
  ctx: ServerContext,
  changes: RunChanges,
  options: RunWorkerOptions,
  state: WorkerState,
  start: WorkerStart,
  owner: string,
): Driving {
  const runId = runOf(start).id;
  // This process took over its own run after a stall: the older drive stops, unrecorded.
  const stale = state.driving.get(runId);
  if (stale) abandon(stale, 'This run was taken over after a stall.');
  const entry = newDriving(ctx, changes, options, start, owner);
  const storeLater = scheduleStore(entry, start, options.storeAfterMs);
  entry.done = driveRun(ctx, start, entry.writer, {
    signal: entry.controller.signal,
    abandoned: () => entry.abandoned,
    owner,
  })
    .catch((error: unknown): DriveResult => {
      options.onError?.(error, runId);
      if (entry.writer.stored() && storeUnavailableIn(error)) {
        abandon(entry, 'The store was unavailable.');
        state.handBack.push({ runId, owner });
        state.wakeups.nudge();
      }
      return entry.writer.stored()
        ? { kind: 'elsewhere' }
        : { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
    })
    // A run never stored is nowhere else to follow: its starter hears why (the store's error
    // as the cause, so an outage is answered as one).
    .then((result): DriveResult =>
      result.kind === 'elsewhere' && !entry.writer.stored()
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
      if (state.driving.get(runId) === entry) state.driving.delete(runId);
      state.wakeups.roomFreed();
    });
  state.driving.set(runId, entry);
  return entry;
}

/** The entry of a run about to be driven, with its writer (which writes only while it owns the run). */
function newDriving(
  ctx: ServerContext,
  changes: RunChanges,
  options: RunWorkerOptions,
  start: WorkerStart,
  owner: string,
): Driving {
  const run = runOf(start);
  const runId = run.id;
  const entry: Driving = {
    owner,
    controller: new AbortController(),
    abandoned: false,
    writer: runWriter({
      store: ctx.store,
      runId,
      owner,
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
  return entry;
}

/**
 * When a run started here is stored: at once (`storeFirst`), or after
 * `storeAfterMs` even if it has done nothing yet. A run that cannot be
 * stored stops: it must not go on unrecorded. Returns the later store's timer.
 */
function scheduleStore(
  entry: Driving,
  start: WorkerStart,
  storeAfterMs: number,
): NodeJS.Timeout | undefined {
  if (start.kind !== 'new') return undefined;
  const storeOrStop = (): Promise<void> =>
    entry.writer.store().catch((error: unknown) => {
      entry.storeError ??= error;
      abandon(entry, 'The run could not be stored.');
      throw error;
    });
  // First in the writer's queue, so nothing the run does is written before it.
  if (start.storeFirst) {
    entry.ready = storeOrStop();
    return undefined;
  }
  const storeLater = setTimeout(() => void storeOrStop().catch(() => undefined), storeAfterMs);
  storeLater.unref();
  return storeLater;
}
