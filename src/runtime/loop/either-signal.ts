/**
 * The signal a run's turns use: the caller's and `own` (the deadline's, a
 * grace turn's budget) combined. A run without a caller signal has none
 * (nothing but its deadline stops it): combining would only cost (AbortSignal.any
 * is among the dearest calls of a turn), so `own` is used as it is.
 */
export function turnSignal(ctx: { callerSignal?: AbortSignal }, own: AbortSignal): AbortSignal {
  return ctx.callerSignal ? AbortSignal.any([ctx.callerSignal, own]) : own;
}

/** Whether the caller cancelled the run; a run no caller can cancel never is. */
export const callerAborted = (ctx: { callerSignal?: AbortSignal }): boolean =>
  ctx.callerSignal?.aborted ?? false;
