import type { RunResult } from '../../contracts/run-result.js';
import type { ClaimResult, RunJournal } from '../../contracts/run-journal.js';
import type { RunState } from '../../contracts/run-state.js';

/** What a memory journal holds: the last state saved, and how the run paused or ended. */
export type MemoryKept =
  { kind: 'paused'; state: RunState } | { kind: 'finished'; result: RunResult };

export interface MemoryJournal extends RunJournal<MemoryKept> {
  /** The last state saved (the run's live state, not a copy), if any. */
  saved(): RunState | undefined;
  /** How the run paused or ended, once it did. */
  kept(): MemoryKept | undefined;
}

/**
 * The journal of a run with no store (the library, the CLI): one process,
 * nothing to take over, so every claimed effect may run and the lease is
 * always held. It keeps the last saved state in memory; the caller keeps a
 * paused state it wants to resume later (`start` returns it).
 */
export function memoryJournal(): MemoryJournal {
  return new InMemoryJournal();
}

// A class, not closures: every run without a store holds one while it waits, and methods on
// the prototype cost it nothing.
class InMemoryJournal implements MemoryJournal {
  #saved: RunState | undefined;
  #kept: MemoryKept | undefined;

  lease(): Promise<void> {
    return Promise.resolve();
  }

  save(state: Readonly<RunState>): void {
    // Kept by reference: a copy every turn would cost a run that never reads it.
    this.#saved = state as RunState;
  }

  pause(state: RunState): Promise<MemoryKept> {
    this.#kept = { kind: 'paused', state };
    return Promise.resolve(this.#kept);
  }

  claim(): Promise<ClaimResult> {
    return Promise.resolve({ kind: 'run' });
  }

  settle(): Promise<void> {
    return Promise.resolve();
  }

  finish(result: RunResult): Promise<MemoryKept> {
    this.#kept = { kind: 'finished', result };
    return Promise.resolve(this.#kept);
  }

  saved(): RunState | undefined {
    return this.#saved;
  }

  kept(): MemoryKept | undefined {
    return this.#kept;
  }
}
