import type { RunState } from '../../contracts/run-state.js';
import type { StoredDataError } from '../../errors/stored-data-error.js';
import type { CadreEvent } from '../../events/types.js';
import type { Usage } from '../../model/types.js';
import type {
  Action,
  Approval,
  Run,
  RunStatus,
  StartExtras,
  Thread,
  ThreadMessage,
} from '../records.js';
import type { NewApproval } from './approval-store.js';
import type { CallOptions } from './call-options.js';
import type { OwnedEvents } from './event-store.js';

export interface EnqueueRun extends StartExtras {
  userId: string;
  /** The user's thread to continue; a new thread titled `title` when absent. */
  threadId?: string;
  title: string;
  prompt: string;
  record?: boolean;
  agent: string;
  definitionSnapshot: unknown;
  definitionHash: string;
  model: string;
}

/** How a run ends: its status, summary, usage and the assistant's reply. */
export interface RunEnding {
  status: Extract<RunStatus, 'completed' | 'failed' | 'cancelled'>;
  summary: string;
  usage: Usage;
  errorCode?: string;
  state?: RunState;
  /** The assistant's reply in the thread. */
  message?: string;
}

/**
 * A run its own process started and stores once it has something to keep:
 * thread (new, with this id, or the user's own), prompt, run and its
 * events so far, in one transaction, either still owned by that process or
 * already finished.
 */
export interface SaveRun extends StartExtras {
  runId: string;
  userId: string;
  thread: { id: string; title: string; existing: boolean };
  prompt: string;
  record?: boolean;
  agent: string;
  definitionSnapshot: unknown;
  definitionHash: string;
  model: string;
  /** Numbered from 1. */
  events: readonly CadreEvent[];
  outcome:
    | { kind: 'owned'; owner: string; leaseMs: number; state: RunState | null }
    | ({ kind: 'finished' } & RunEnding);
}

export interface Enqueued {
  thread: Thread;
  message: ThreadMessage;
  run: Run;
}

/** A run a worker now owns; `interrupted` lists the dead owner's effects of unknown outcome. */
export interface LeasedRun {
  run: Run;
  takenOver: boolean;
  interrupted: Action[];
  /**
   * The row's job could not be read (it names the field; `run.job` is then
   * absent). The run is leased all the same, so its step ends it failed
   * instead of it heading the queue on every poll.
   */
  damaged?: StoredDataError;
}

export interface PauseRun {
  owner: string;
  state: RunState;
  summary: string;
  /** The assistant's message in the thread ("I need your approval to: …"). */
  message: string;
  approvals: ReadonlyArray<Omit<NewApproval, 'runId'>>;
  /** The owner's events not stored yet, written with the approvals. */
  events?: OwnedEvents;
}

/** A driven run's state to take it over from, with its owner's events not stored yet. */
export interface CheckpointRun {
  owner: string;
  state: RunState;
  events?: OwnedEvents;
}

export interface FinishRun extends RunEnding {
  owner: string;
  /** The owner's events not stored yet, written with the ending. */
  events?: OwnedEvents;
}

/** A run and the owner token of the lease that holds it (unique per lease, never reused). */
export interface Lease {
  runId: string;
  owner: string;
}

export interface LeaseRenewal {
  /** Runs still owned; the rest were taken over and must stop here. */
  kept: string[];
  /** Owned runs a person asked to cancel. */
  cancelRequested: string[];
}

/**
 * Durable runs from start to end: queued, leased by one worker (taken
 * over by another when the lease runs out), paused for approval or
 * finished, each step by the owner only.
 */
export interface QueueStore {
  /** One transaction: thread (new or the user's), the prompt message, the run `queued`. */
  enqueue(run: EnqueueRun, options?: CallOptions): Promise<Enqueued | undefined>;
  /** Stores a run this process started (see SaveRun); undefined when the thread is not the user's. */
  save(run: SaveRun, options?: CallOptions): Promise<Enqueued | undefined>;
  /** The oldest run needing a worker (queued, or its owner's lease expired), now leased to `owner`. */
  leaseNext(owner: string, leaseMs: number, options?: CallOptions): Promise<LeasedRun | undefined>;
  /** Extends these leases; says which runs were lost and which were asked to cancel. */
  renewLeases(
    leases: readonly Lease[],
    leaseMs: number,
    options?: CallOptions,
  ): Promise<LeaseRenewal>;
  /** Ends these leases now (shutdown), so another process takes the runs over at once. */
  expireLeases(leases: readonly Lease[], options?: CallOptions): Promise<void>;
  /** Keeps a driven run's state and events in one transaction, if `owner` still holds it. */
  checkpoint(runId: string, checkpoint: CheckpointRun, options?: CallOptions): Promise<boolean>;
  /** Pauses the run for approval in one transaction (approvals, message, status), if `owner` still holds it. */
  pause(
    runId: string,
    pause: PauseRun,
    options?: CallOptions,
  ): Promise<{ run: Run; approvals: Approval[] } | undefined>;
  /** Ends the run in one transaction (reply, status), if `owner` still holds it. */
  finish(runId: string, ending: FinishRun, options?: CallOptions): Promise<Run | undefined>;
}
