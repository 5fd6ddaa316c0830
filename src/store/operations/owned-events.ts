import type { Kysely } from 'kysely';
import type { RunEvent } from '../records.js';
import type { Database } from '../schema/database.js';
import { now, type StoreContext } from '../store-context.js';
import type { OwnedEvents } from '../types.js';
import { notify, RUN_CHANNEL } from './run-queue.js';
import { storedEventsJson } from '../stored-event.js';

/** The last seq of a batch the owner numbered (firstSeq - 1 when it is empty). */
export const lastSeq = (owned: OwnedEvents): number => owned.firstSeq + owned.events.length - 1;

/** Rows per INSERT: under every database's limit on bound values (5 a row; SQLite's oldest is 999). */
const ROWS_PER_INSERT = 150;

/**
 * Inserts events the run's owner numbered itself. The (run, seq) key
 * rejects a batch from an owner that lost the run to another. `reply` is
 * the run's reply message when this batch ends the run: its final result
 * points at it instead of repeating the answer.
 */
export async function insertOwnedEvents(
  db: Kysely<Database>,
  runId: string,
  owned: OwnedEvents,
  time: string,
  reply?: string,
): Promise<void> {
  const json = storedEventsJson(
    owned.events.map((event, index) => ({ ...event, runId, seq: owned.firstSeq + index })),
    reply,
  );
  const rows = owned.events.map((event, index) => ({
    run_id: runId,
    seq: owned.firstSeq + index,
    type: event.type,
    json: json[index] as string,
    created_at: time,
  }));
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
    await db
      .insertInto('run_events')
      .values(rows.slice(start, start + ROWS_PER_INSERT))
      .execute();
}

/**
 * A run's events written while its owner drives it (between checkpoints),
 * with the run's event_seq, in one transaction that only its owner can
 * commit. Undefined when `owner` no longer holds the run: nothing is written.
 */
export function writeOwnedEvents(
  context: StoreContext,
  runId: string,
  owner: string,
  owned: OwnedEvents,
  signal?: AbortSignal,
): Promise<RunEvent[] | undefined> {
  return context.grouped(async (db) => {
    const time = now();
    const held = await db
      .updateTable('runs')
      .set({ event_seq: lastSeq(owned), updated_at: time })
      .where('id', '=', runId)
      .where('owner', '=', owner)
      .returning('id')
      .executeTakeFirst();
    if (held === undefined) return undefined;
    await insertOwnedEvents(db, runId, owned, time);
    await notify(db, context, RUN_CHANNEL, runId);
    return owned.events.map((event, index) => {
      const seq = owned.firstSeq + index;
      return { runId, seq, type: event.type, event: { ...event, runId, seq } };
    });
  }, signal);
}
