import type { RunRecord } from '../api/wire-types.js';

/** What the page needs of each run of a thread: who ran it, on what model, and how it ended. */
export type RunSummary = Pick<RunRecord, 'agent' | 'model' | 'summary' | 'errorCode'> & {
  /** A RunStatus; `cancelled` from servers that store it, else a failed run with code `cancelled`. */
  status: string;
};

/** How a run's reply reads: an answer, a failure, or a cancellation. */
export type ReplyOutcome = 'answered' | 'failed' | 'cancelled' | 'open';

export function replyOutcome(run: Pick<RunSummary, 'status' | 'errorCode'>): ReplyOutcome {
  switch (run.status) {
    case 'completed':
      return 'answered';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      // Servers before the `cancelled` status stored a cancel as failed, code `cancelled`.
      return run.errorCode === 'cancelled' ? 'cancelled' : 'failed';
    default:
      return 'open';
  }
}

/** The run's status as a badge shows it: a cancel is never "failed". */
export const statusLabel = (run: Pick<RunSummary, 'status' | 'errorCode'>): string =>
  replyOutcome(run) === 'cancelled' ? 'cancelled' : run.status;

/** A model that plays canned answers (`scripted:FILE`, or an injected `scripted` client). */
export const isScripted = (model: string | undefined): boolean =>
  model !== undefined && /^scripted(:|$)/.test(model);

/** The script's file, as a person reads it: `scripted:examples/x.json` → `examples/x.json`. */
export const scriptOf = (model: string): string => model.replace(/^scripted:?/, '');

/** Settled runs never change: their summaries are read once. */
export const isSettled = (run: Pick<RunSummary, 'status' | 'errorCode'>): boolean =>
  replyOutcome(run) !== 'open';
