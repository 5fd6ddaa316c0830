/**
 * A signal that aborts when either does. A run without a caller signal has a
 * signal that never aborts; combining with it would only cost (AbortSignal.any
 * is among the dearest calls of a turn), so the other is used as it is.
 */
export function eitherSignal(
  caller: AbortSignal,
  own: AbortSignal,
  callerCanAbort: boolean,
): AbortSignal {
  return callerCanAbort ? AbortSignal.any([caller, own]) : own;
}
