import type { CadreEvent } from '../../events/types.js';
import type { RunEvent } from '../records.js';
import type { CallOptions } from './call-options.js';

/** Events numbered by the run's owner: while it holds the run, nobody else appends to its log. */
export interface OwnedEvents {
  firstSeq: number;
  events: readonly CadreEvent[];
}

/** A change another process made: a run's log or status (`run`), or a run queued (`queue`). */
export type RunChange =
  | { kind: 'run'; runId: string }
  | { kind: 'queue' }
  /** Notifications may have been missed (LISTEN was lost and is back): everyone should look again. */
  | { kind: 'resync' };

/** Each run's event log, and news of changes made by other processes. */
export interface EventStore {
  /** Appends in order; the store assigns each event the run's next seq. */
  append(runId: string, events: readonly CadreEvent[], options?: CallOptions): Promise<RunEvent[]>;
  /** Writes events the run's owner numbered itself (see OwnedEvents); undefined when `owner` lost the run. */
  writeOwned(
    runId: string,
    owner: string,
    owned: OwnedEvents,
    options?: CallOptions,
  ): Promise<RunEvent[] | undefined>;
  /** Events with seq > `after` (default 0), at most `limit` (default 1000), in order. */
  read(
    runId: string,
    range?: { after?: number; limit?: number },
    options?: CallOptions,
  ): Promise<RunEvent[]>;
  /** Resolves to the run ids whose log or status changed, from any process; absent where only polling works. */
  subscribe?(
    listener: (change: RunChange) => void,
    options?: CallOptions,
  ): Promise<() => Promise<void>>;
}
