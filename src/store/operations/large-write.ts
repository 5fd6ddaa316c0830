import { sql } from 'kysely';
import type { StoreContext } from '../store-context.js';

/** A reply this long is checkpointed as soon as it is committed (SQLite). */
const LARGE_REPLY_CHARS = 1_000_000;

/**
 * After a large reply is committed on SQLite, copies the WAL into the database
 * and empties it, so the answer is not held twice on disk (once in the WAL,
 * once in the database) until some later write. Rare: a long answer's cost.
 */
export async function afterLargeReply(
  context: Pick<StoreContext, 'db' | 'dialect'>,
  reply: string | undefined,
): Promise<void> {
  if (context.dialect !== 'sqlite' || (reply?.length ?? 0) < LARGE_REPLY_CHARS) return;
  try {
    // PASSIVE never waits; only once it copied the whole WAL is TRUNCATE asked for, as it would
    // wait (synchronously, up to busy_timeout) on a reader in another process.
    const passive = await sql<{
      busy: number;
      log: number;
      checkpointed: number;
    }>`pragma wal_checkpoint(PASSIVE)`.execute(context.db);
    const row = passive.rows[0];
    if (row && row.busy === 0 && row.log === row.checkpointed)
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(context.db);
  } catch {
    // Best effort: the WAL is cut back at a later write (journal_size_limit).
  }
}
