import type { Message } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { LeasedRun, Run } from '../../store/types.js';

/** How a worker drives one run. */
export interface DriveHooks {
  /** Cancels the run (a person asked) or abandons it (see `abandoned`). */
  signal: AbortSignal;
  /** True when this process hands the run over (shutdown, lost lease): nothing more is recorded. */
  abandoned: () => boolean;
  owner: string;
}

/** Where a drive starts: a run leased from the store, or one this process just started. */
export type DriveStart =
  | { kind: 'leased'; leased: LeasedRun }
  | {
      kind: 'new';
      run: Run;
      definition: AgentDefinition;
      history: Message[];
      historySeqs?: readonly number[];
      record: boolean;
    };

/** The run a drive starts from. */
export const runOf = (start: DriveStart): Run =>
  start.kind === 'leased' ? start.leased.run : start.run;

/** How a drive ended for whoever follows it in this process. */
export type DriveResult =
  | { kind: 'settled'; run: Run; actionsCreated: boolean }
  /** Handed over (shutdown, lost lease) or failed outside the loop: follow it through the store. */
  | { kind: 'elsewhere' }
  /** Stopped before it was ever stored: there is nothing to follow. */
  | { kind: 'failed'; error: Error };
