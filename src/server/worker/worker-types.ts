import type { AgentDefinition } from '../../definition/types.js';
import type { CadreEvent } from '../../events/types.js';
import type { Message } from '../../model/types.js';
import type { Run } from '../../store/types.js';
import type { Clock } from '../../util/clock.js';
import type { DriveResult, DriveStart } from '../core/drive-types.js';
import type { UnstoredRun } from '../core/run-writer.js';

export interface RunWorkerOptions {
  /** How long a lease lasts without a heartbeat; another process takes the run over after it. */
  leaseMs: number;
  /**
   * A run started in this process is stored this long after it starts, or
   * before its first side effect, or when it pauses, whichever comes first; one
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
  /**
   * What the heartbeat waits on (default the real clock). The queue's poll
   * and backoff wait on the clock of the RunChanges the worker is given.
   */
  clock?: Clock;
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
   * Stops leasing and waits up to `graceMs` for runs in flight to finish
   * their step; what is left is handed over (leases expired) and abandoned.
   */
  drain(graceMs: number): Promise<{ finished: number; handedOver: number }>;
}

/** What a worker drives: a run it leased, or one a request here started. */
export type WorkerStart = Extract<DriveStart, { kind: 'leased' }> | ({ kind: 'new' } & AdoptRun);

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
  /** Settled here (finished or paused), or handed to the store to follow. */
  readonly result: Promise<DriveResult>;
  /** Resolves once the run is stored, when it was started with `storeFirst`; at once otherwise. */
  readonly ready: Promise<void>;
  /** The last of its events the store holds. */
  storedSeq(): number;
}
