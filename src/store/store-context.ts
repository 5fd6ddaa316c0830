import { sql, type Kysely } from 'kysely';
import type { Database } from './schema/database.js';

export type StoreDialect = 'sqlite' | 'postgres';

/** What every operation works on: the database and which kind it is. */
export interface StoreContext {
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  /** Time-ordered ids (UUIDv7), so lists ordered by id follow creation order. */
  readonly newId: () => string;
  /** Keys the audit chain (HMAC); without it entries use the public recipe and verify says 'unkeyed'. */
  readonly auditKey?: Buffer;
  /** Definition hashes this store has written (or found) already: their snapshot is not written again. */
  readonly knownDefinitions: Set<string>;
  /** Where runs are recorded and finished: a transaction that may share its commit (groupCommits). */
  readonly grouped: GroupedTransaction;
}

export function listOf<T>(value: T | readonly T[]): T[] {
  return Array.isArray(value) ? [...(value as readonly T[])] : [value as T];
}

export const now = (): string => new Date().toISOString();

/** `ms` from now, as stored (leases). */
export const later = (ms: number): string => new Date(Date.now() + ms).toISOString();

/**
 * Runs `work` in a transaction that holds the write lock from its first
 * statement. SQLite: BEGIN IMMEDIATE (a deferred transaction that reads
 * first could not upgrade under a concurrent writer in another process).
 * PostgreSQL: a plain transaction; callers lock the rows they depend on.
 */
export async function writeTransaction<T>(
  context: Pick<StoreContext, 'db' | 'dialect'>,
  work: (db: Kysely<Database>) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  signal?.throwIfAborted();
  if (context.dialect === 'postgres') return context.db.transaction().execute(work);
  return context.db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}

/** Transactions that may share a commit with others queued at the same moment (see groupCommits). */
export type GroupedTransaction = <T>(
  work: (db: Kysely<Database>) => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;

interface Queued {
  work: (db: Kysely<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: writes queued in the same turn of the event loop (and while
 * the previous group commits) run in one transaction, each answered only
 * once that transaction commits. Under load, many runs ending together cost
 * one BEGIN/COMMIT and one write of the pages they share. Should any of them
 * fail, the group is rolled back and each runs again in its own
 * transaction, so one bad write never fails another.
 */
export function groupCommits(context: Pick<StoreContext, 'db' | 'dialect'>): GroupedTransaction {
  let queue: Queued[] = [];
  let scheduled = false;
  // Groups commit one after another: what queues meanwhile forms the next, larger group.
  let previous: Promise<void> = Promise.resolve();
  const alone = (item: Queued): Promise<void> =>
    writeTransaction(context, item.work).then(item.resolve, item.reject);
  const flush = async (): Promise<void> => {
    scheduled = false;
    const group = queue;
    queue = [];
    if (group.length === 1) return alone(group[0] as Queued);
    try {
      const results = await writeTransaction(context, async (db) => {
        const answers: unknown[] = [];
        for (const item of group) answers.push(await item.work(db));
        return answers;
      });
      group.forEach((item, index) => item.resolve(results[index]));
    } catch {
      for (const item of group) await alone(item);
    }
  };
  const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return <T>(work: (db: Kysely<Database>) => Promise<T>, signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted();
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (scheduled) return;
      scheduled = true;
      // flush answers every item itself; the chain must survive whatever happens.
      previous = previous
        .then(nextTurn)
        .then(flush)
        .catch(() => undefined);
    });
  };
}
