import type { RunResult } from '../../contracts/run-result.js';
import type { RunJournal } from '../../contracts/run-journal.js';
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
  let saved: RunState | undefined;
  let kept: MemoryKept | undefined;
  return {
    lease: () => Promise.resolve(),
    save(state) {
      // Kept by reference: a copy every turn would cost a run that never reads it.
      saved = state as RunState;
      return Promise.resolve();
    },
    pause(state) {
      kept = { kind: 'paused', state };
      return Promise.resolve(kept);
    },
    claim: () => Promise.resolve({ kind: 'run' }),
    settle: () => Promise.resolve(),
    finish(result) {
      kept = { kind: 'finished', result };
      return Promise.resolve(kept);
    },
    saved: () => saved,
    kept: () => kept,
  };
}
