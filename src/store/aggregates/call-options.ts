/** The last parameter of every store call. */
export interface CallOptions {
  /** Reads stop when it aborts; writes check it before they start, then run to completion. */
  signal?: AbortSignal;
}
