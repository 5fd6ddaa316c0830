/**
 * The outcome of a compare-and-set: `status_mismatch` carries the status found
 * instead; `not_held` says the caller no longer holds the run it acts for.
 */
export type Transition<T, S extends string> =
  | { ok: true; value: T }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'not_held' }
  | { ok: false; reason: 'status_mismatch'; status: S };
