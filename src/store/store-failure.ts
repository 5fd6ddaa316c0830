import { StoreUnavailableError, type StoreOutage } from '../errors/store-error.js';
import { NETWORK_CODES } from '../util/network-codes.js';

/**
 * PostgreSQL SQLSTATEs that say "not now" rather than "never": shutting
 * down or starting up (57P01-57P03), too many connections (53300), out of
 * memory (53200), an I/O error (58030). Class 08 (connection exceptions) is
 * matched by prefix.
 */
const POSTGRES_UNREACHABLE = new Set(['57P01', '57P02', '57P03', '53300', '53200', '58030']);
/** disk_full. */
const POSTGRES_FULL = '53100';

/** `pg` and Kysely say a connection died or the pool is gone only in words. */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|driver has already been destroyed)/;

/** How deep to follow `cause` and AggregateError members (wrappers seldom nest more). */
const MAX_DEPTH = 5;

/**
 * Whether `error` (or what it wraps) means the store is unavailable for now,
 * and why; undefined for every other failure (a constraint, a bug), which
 * must not be dressed up as an outage.
 */
export function storeOutage(error: unknown, depth = 0): StoreOutage | undefined {
  if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return undefined;
  if (error instanceof StoreUnavailableError) return error.outage;
  const own = outageOf(error);
  if (own) return own;
  const nested = [
    Reflect.get(error, 'cause'),
    ...(error instanceof AggregateError ? (error.errors as unknown[]) : []),
  ];
  for (const inner of nested) {
    const found = storeOutage(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The error as a StoreUnavailableError when it is one in substance; undefined otherwise. */
export function asStoreUnavailable(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  const outage = storeOutage(error);
  return outage && new StoreUnavailableError(outage, { cause: error });
}

function outageOf(error: object): StoreOutage | undefined {
  const code = Reflect.get(error, 'code');
  if (typeof code === 'string') {
    if (code === 'ENOSPC' || code === 'SQLITE_FULL' || code === POSTGRES_FULL) return 'full';
    if (NETWORK_CODES.has(code) || POSTGRES_UNREACHABLE.has(code)) return 'unreachable';
    if (/^08[0-9A-Z]{3}$/.test(code)) return 'unreachable';
    // Busy past the busy timeout, or the file cannot be read or opened.
    if (/^SQLITE_(BUSY|IOERR|CANTOPEN)/.test(code)) return 'unreachable';
  }
  const message = Reflect.get(error, 'message');
  if (typeof message === 'string' && CONNECTION_LOST.test(message)) return 'unreachable';
  return undefined;
}
