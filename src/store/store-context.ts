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
}

export function listOf<T>(value: T | readonly T[]): T[] {
  return Array.isArray(value) ? [...(value as readonly T[])] : [value as T];
}

export const now = (): string => new Date().toISOString();

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
