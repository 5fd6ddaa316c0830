import type { RunJournal } from '../../contracts/run-journal.js';
import type { FunctionCallPart } from '../../model/types.js';

/**
 * A child's view of its root's journal: its side effects are claimed and
 * settled under call ids scoped to it, so two children's `call_1` stay
 * apart; its state is kept inside its root's (a pending child in the
 * root's turn), so saving, pausing and ending are its root's to do.
 */
export function childJournal(
  root: RunJournal,
  scoped: (call: FunctionCallPart) => FunctionCallPart,
): RunJournal {
  return {
    lease: () => root.lease(),
    save: () => undefined,
    pause: () => Promise.resolve(undefined),
    claim: (call, options) => root.claim(scoped(call), options),
    settle: (call, outcome) => root.settle(scoped(call), outcome),
    finish: () => Promise.resolve(undefined),
  };
}
