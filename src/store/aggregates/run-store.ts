import type { RunState } from '../../contracts/run-state.js';
import type { Usage } from '../../model/types.js';
import type { Run, RunJob, RunStatus } from '../records.js';
import type { CallOptions } from './call-options.js';
import type { Transition } from './transition.js';

export interface NewRun {
  /** Defaults to a new UUIDv7; pass the executor's run id to keep one id everywhere. */
  id?: string;
  threadId: string;
  userId: string;
  agent: string;
  status?: RunStatus;
  definitionSnapshot: unknown;
  definitionHash: string;
  model: string;
  state?: RunState | null;
  job?: RunJob;
}

export interface RunPatch {
  status?: RunStatus;
  state?: RunState | null;
  summary?: string;
  model?: string;
  usage?: Usage;
  errorCode?: string | null;
  job?: RunJob | null;
  /** Clears the owner and lease (the run finished, paused, or was handed back). */
  release?: boolean;
}

/** Conditions an update of a run must meet, checked in the same statement. */
export interface RunGuard {
  expectedStatus?: RunStatus | readonly RunStatus[];
  /** Only while this worker still owns the run. */
  owner?: string;
}

/** Runs as records, and the definition snapshots they were started from. */
export interface RunStore {
  create(run: NewRun, options?: CallOptions): Promise<Run>;
  get(runId: string, userId: string, options?: CallOptions): Promise<Run | undefined>;
  /** Compare-and-set when `expectedStatus` is given; `finishedAt` is set on completed / failed. */
  update(
    runId: string,
    patch: RunPatch,
    guard?: RunGuard,
    options?: CallOptions,
  ): Promise<Transition<Run, RunStatus>>;
  /** Ends an idle run (queued / awaiting approval) or flags a driven one for its owner to stop. */
  requestCancel(runId: string, userId: string, options?: CallOptions): Promise<Run | undefined>;
  /** The snapshot stored for a definition hash (see Run.definitionHash). */
  getDefinition(hash: string, options?: CallOptions): Promise<unknown>;
}
