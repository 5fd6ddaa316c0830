import { CadreError } from './cadre-error.js';

/** Why the store cannot serve: the database is out of reach, or it has no room to write. */
export type StoreOutage = 'unreachable' | 'full';

const MESSAGES: Record<StoreOutage, string> = {
  unreachable: 'The database is unavailable; retry shortly.',
  full: 'The database has no room to store this; retry later.',
};

/**
 * The store failed for a reason that is neither the caller's nor lasting:
 * the database went away (restart, network) or its disk is full. The
 * message is safe to show; the driver's own error stays in `cause`.
 */
export class StoreUnavailableError extends CadreError {
  readonly outage: StoreOutage;

  constructor(outage: StoreOutage, options?: { cause?: unknown }) {
    super('store_unavailable', MESSAGES[outage], options);
    this.outage = outage;
  }
}

/** The StoreUnavailableError `error` is or wraps (through `cause`), if any. */
export function storeUnavailableIn(error: unknown, depth = 0): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  if (depth >= 5 || !(error instanceof Error)) return undefined;
  return storeUnavailableIn(error.cause, depth + 1);
}
