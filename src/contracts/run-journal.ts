import type { FunctionCallPart } from '../model/types.js';
import type { RunResult } from './run-result.js';
import type { AwaitedCall, RunState } from './run-state.js';

export type SideEffectOutcome = { ok: true; output: unknown } | { ok: false; error: string };

/**
 * `run`: this caller may run the call now. `known`: it ran (or was cut off)
 * before, here or in another process: answer with that, never run it again.
 */
export type ClaimResult = { kind: 'run' } | { kind: 'known'; outcome: SideEffectOutcome };

export interface ClaimOptions {
  /** The tool is `exactly-once`: a call a dead process cut off (outcome unknown) may run again. */
  rerunUnknown?: boolean;
}

/**
 * When the loop saves: `before_effects` is awaited before a turn's side
 * effects run, with that turn pending (what a process taking the run over
 * answers from); `turn_end` follows every turn, and a store may skip it (a
 * turn without effects is only asked of the model again).
 */
export type SavePoint = 'before_effects' | 'turn_end';

/**
 * Where a run keeps what must survive its process: the one durability port
 * of the CLI, the server and the library. A store implements it over its
 * aggregates; a run without a store keeps it in memory.
 *
 * The person's decision (`confirm`) is not part of it: that is who decides,
 * not what is kept.
 *
 * `Kept` is what a pause or an ending leaves (a store's run record);
 * `undefined` from either means this process no longer holds the run.
 */
export interface RunJournal<Kept = unknown> {
  /** Holds the run for this process before anything naming it is written; at once once held. */
  lease(): Promise<void>;
  /**
   * Keeps the run's state with its events so far. A journal that keeps it at
   * once (in memory) returns nothing: the loop saves after every turn, and
   * waiting on a settled promise there costs the turn a tick.
   */
  save(state: Readonly<RunState>, point: SavePoint): Promise<void> | void;
  /** The run waits for a person on these calls; its state is kept to resume anywhere. */
  pause(state: RunState, pending: readonly AwaitedCall[]): Promise<Kept | undefined>;
  /**
   * The run-once guard: claims a side-effecting call just before it runs.
   * `known` means it already ran, or is running elsewhere.
   */
  claim(call: FunctionCallPart, options?: ClaimOptions): Promise<ClaimResult>;
  /** Records how a claimed side effect ended. */
  settle(call: FunctionCallPart, outcome: SideEffectOutcome): Promise<void>;
  /** The run ended (finished, failed or cancelled). */
  finish(result: RunResult): Promise<Kept | undefined>;
}
