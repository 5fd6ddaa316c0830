import type { Kysely } from 'kysely';
import type { RunEvent } from '../records.js';
import type { Database } from '../schema/database.js';
import { now, type StoreContext } from '../store-context.js';
import type { OwnedEvents } from '../types.js';
import { notify, RUN_CHANNEL } from './run-queue.js';

/** The last seq of a batch the owner numbered (firstSeq - 1 when it is empty). */
export const lastSeq = (owned: OwnedEvents): number => owned.firstSeq + owned.events.length - 1;

/**
 * Inserts events the run's owner numbered itself, in one statement. The
 * (run, seq) key rejects a batch from an owner that lost the run to another.
 */
export async function insertOwnedEvents(
  db: Kysely<Database>,
  runId: string,
  owned: OwnedEvents,
  time: string,
): Promise<void> {
  if (owned.events.length === 0) return;
  await db
    .insertInto('run_events')
    .values(
      owned.events.map((event, index) => {
        const seq = owned.firstSeq + index;
        return {
          run_id: runId,
          seq,
          type: event.type,
          json: JSON.stringify({ ...event, runId, seq }),
          created_at: time,
        };
      }),
    )
    .execute();
}

/** A run's events written while its owner drives it (between checkpoints), then announced. */
export async function writeOwnedEvents(
  context: StoreContext,
  runId: string,
  owned: OwnedEvents,
  signal?: AbortSignal,
): Promise<RunEvent[]> {
  signal?.throwIfAborted();
  await insertOwnedEvents(context.db, runId, owned, now());
  await notify(context.db, context, RUN_CHANNEL, runId);
  return owned.events.map((event, index) => {
    const seq = owned.firstSeq + index;
    return { runId, seq, type: event.type, event: { ...event, runId, seq } };
  });
}
