import { CancelledError, NotFoundError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import type { RunState } from '../../contracts/run-state.js';
import type {
  Approval,
  OwnedEvents,
  PauseRun,
  SaveRun,
  Run,
  RunEnding,
  Store,
} from '../../store/types.js';
import { deltaCoalescer } from './delta-coalescer.js';
import { pendingEvents } from './pending-events.js';
import { serialWrites } from './serial-writes.js';

/** Most characters of answer one numbered delta carries. */
const DELTA_MAX_CHARS = 16_384;
/** Longest a delta waits for the next piece before followers get it. */
const DELTA_WAIT_MS = 25;

/** What a run not stored yet needs to be stored: everything SaveRun takes but its events and outcome. */
export type UnstoredRun = Omit<SaveRun, 'events' | 'outcome'>;

export interface RunWriterOptions {
  store: Store;
  runId: string;
  owner: string;
  leaseMs: number;
  /** The last seq already in the store (0 for a run not stored yet). */
  eventSeq: number;
  /** Set for a run this process started and has not stored yet. */
  unstored?: UnstoredRun;
  /** Pending events are written at most this long after they happen (followers elsewhere read them). */
  flushMs: number;
  /** Each event, numbered, the moment it happens: this process's attached requests. */
  onEvent?: (event: CadreEvent) => void;
  /** After anything was stored: wakes readers attached through the store. */
  changed: () => void;
  /** A guarded write found another owner: nothing more may be recorded or run. */
  lost: () => void;
}

export interface RunWriter {
  /** The lease owner this process writes the run as. */
  readonly owner: string;
  stored(): boolean;
  /** Numbers the event, hands it to local followers and queues it for the store. */
  event(event: CadreEvent): void;

  /** Stores a run not stored yet (owned by this process, its state if any) with its events so far. */
  store(state?: RunState | null): Promise<void>;
  /** The state to take the run over from, stored before a side effect may run. */
  checkpoint(state: RunState): Promise<void>;
  pause(input: Omit<PauseRun, 'owner' | 'events'>): Promise<PausedRun | undefined>;
  /** Ends the run; a run never stored is stored whole here, in one transaction. */
  finish(ending: RunEnding): Promise<Run | undefined>;
  /** Writes the events not stored yet (a run stored already). */
  flush(): Promise<void>;
  /** Stops writing: this process let the run go. Nothing more is delivered or written. */
  close(): void;
  /** The last seq the store holds. */
  storedSeq(): number;
}

type PausedRun = { run: Run; approvals: Approval[] };

/**
 * Everything a driven run writes goes through here, in order: events are
 * numbered by the owner (no round trip per event), delivered to this
 * process's followers at once, and written in batches — with the run's
 * ending, with a checkpoint, or `flushMs` after they happen. A run this
 * process started is stored only when it must be: before its first side
 * effect, when it pauses, when `store()` is called (it has run long enough,
 * or the process is draining) — or, if it ends first, whole, in one
 * transaction.
 */
export function runWriter(options: RunWriterOptions): RunWriter {
  const { store, runId, owner } = options;
  let unstored = options.unstored;
  let closed = false;
  // The last seq the store holds: where a follower picks the log up should this process let go.
  let storedSeq = options.eventSeq;
  const serial = serialWrites();
  const pending = pendingEvents({
    runId,
    eventSeq: options.eventSeq,
    flushMs: options.flushMs,
    flush: () => void flush().catch(() => undefined),
  });
  // Deltas are merged before they are numbered, so live followers and the store see the same events.
  const deltas = deltaCoalescer({
    maxChars: DELTA_MAX_CHARS,
    waitMs: DELTA_WAIT_MS,
    // Followers here get events at once; elsewhere, once the run is stored and they are flushed.
    watched: () => options.onEvent !== undefined || !unstored,
    emit(event) {
      const numbered = pending.add(event);
      options.onEvent?.(numbered);
      if (!unstored) pending.schedule();
    },
  });
  /** Runs a write with every event so far queued for it, a held delta included. */
  const queued = <T>(write: () => Promise<T>): Promise<T> => {
    deltas.release();
    return serial(write);
  };

  const written = (batch: OwnedEvents): void => {
    storedSeq = lastSeqOf(batch);
    options.changed();
  };
  const lose = (): never => {
    options.lost();
    throw new CancelledError('This process no longer owns the run.');
  };
  /** Stores the run not stored yet, whole, with the events so far: still owned, or finished. */
  const saveWhole = async (input: UnstoredRun, outcome: SaveRun['outcome']): Promise<Run> => {
    const batch = pending.take();
    const stored = await store.queue.save({ ...input, events: batch.events, outcome });
    if (!stored) throw new NotFoundError('No such thread.');
    unstored = undefined;
    written(batch);
    return stored.run;
  };
  const storeNow = async (state: RunState | null): Promise<void> => {
    if (!unstored) return;
    await saveWhole(unstored, { kind: 'owned', owner, leaseMs: options.leaseMs, state });
    // Events that came while it was being stored go out with the next flush.
    if (pending.size > 0) pending.schedule();
  };
  const flush = (): Promise<void> =>
    queued(async () => {
      if (unstored || pending.size === 0) return;
      const batch = pending.take();
      if (!(await store.events.writeOwned(runId, owner, batch))) lose();
      written(batch);
    });

  return {
    owner,
    stored: () => unstored === undefined,
    storedSeq: () => storedSeq,
    event(event) {
      if (!closed) deltas.offer(event);
    },
    store: (state = null) => queued(() => storeNow(state)),
    flush,
    close() {
      closed = true;
      deltas.discard();
      pending.stop();
    },
    checkpoint: (state) =>
      queued(async () => {
        if (unstored) return storeNow(state);
        const batch = pending.take();
        // State and events in one transaction, as a pause and an ending are.
        if (!(await store.queue.checkpoint(runId, { owner, state, events: batch }))) lose();
        if (batch.events.length > 0) written(batch);
      }),
    pause: (input) =>
      queued(async () => {
        await storeNow(input.state);
        const batch = pending.take();
        const paused = await store.queue.pause(runId, { ...input, owner, events: batch });
        if (paused) written(batch);
        return paused;
      }),
    finish: (ending) =>
      queued(async () => {
        if (unstored) return saveWhole(unstored, { kind: 'finished', ...ending });
        const batch = pending.take();
        const run = await store.queue.finish(runId, { ...ending, owner, events: batch });
        if (run) written(batch);
        return run;
      }),
  };
}

const lastSeqOf = (batch: OwnedEvents): number => batch.firstSeq + batch.events.length - 1;
