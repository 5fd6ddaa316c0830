import { CancelledError } from '../../errors/cadre-error.js';
import type { Lease } from '../../store/types.js';
import type { DriveResult } from '../core/drive-types.js';
import type { RunWriter } from '../core/run-writer.js';
import type { Wakeups } from './wakeups.js';

/** One run in flight in this process. */
export interface Driving {
  /** This lease's owner token: unique, so a re-lease by this same process is another owner. */
  owner: string;
  controller: AbortController;
  abandoned: boolean;
  writer: RunWriter;
  done: Promise<DriveResult>;
  ready: Promise<void>;
  /** Why a run started here could not be stored (the starter hears it). */
  storeError?: unknown;
}

/** What the parts of one worker share. */
export interface WorkerState {
  /** This process's worker id; each lease's owner token extends it. */
  readonly owner: string;
  /** The runs in flight here, by run id. */
  readonly driving: Map<string, Driving>;
  /** Aborted when the worker drains: no more leases. */
  readonly stopping: AbortController;
  /**
   * Runs whose step failed because the store was away: stored, owned by a
   * lease that no longer drives them. Their leases are ended as soon as the
   * store answers again, so they are taken over (from their checkpoint, an
   * interrupted effect never run twice) at once rather than after the lease.
   */
  readonly handBack: Lease[];
  readonly wakeups: Wakeups;
}

/** Stops driving a run here without writing anything more: another process has it, or will. */
export function abandon(entry: Driving, reason: string): void {
  if (entry.abandoned) return;
  entry.abandoned = true;
  // Whatever the run still emits here is not this process's to record.
  entry.writer.close();
  entry.controller.abort(new CancelledError(reason));
}

/** Stops a run this process drives, as a person's cancel; false when it is not here. */
export function cancelDriving(state: WorkerState, runId: string): boolean {
  const entry = state.driving.get(runId);
  if (!entry) return false;
  entry.controller.abort(new CancelledError('The run was cancelled.'));
  return true;
}

export const hasRoom = (state: WorkerState, concurrency: number): boolean =>
  !state.stopping.signal.aborted && state.driving.size < concurrency;
