import { now, type StoreContext } from '../store-context.js';
import type { CheckpointRun } from '../types.js';
import { insertOwnedEvents, lastSeq } from './owned-events.js';
import { notify, RUN_CHANNEL } from './run-queue.js';

/**
 * A driven run's checkpoint in one transaction, by its owner only: the state
 * to take it over from, with the owner's events not stored yet. False when
 * `owner` no longer holds the run: nothing is written.
 */
export function checkpointRun(
  context: StoreContext,
  runId: string,
  input: CheckpointRun,
  signal?: AbortSignal,
): Promise<boolean> {
  const events = input.events && input.events.events.length > 0 ? input.events : undefined;
  return context.grouped(async (db) => {
    const time = now();
    const held = await db
      .updateTable('runs')
      .set({
        state: JSON.stringify(input.state),
        updated_at: time,
        ...(events ? { event_seq: lastSeq(events) } : {}),
      })
      .where('id', '=', runId)
      .where('owner', '=', input.owner)
      .returning('id')
      .executeTakeFirst();
    if (held === undefined) return false;
    if (events) {
      await insertOwnedEvents(db, runId, events, time);
      await notify(db, context, RUN_CHANNEL, runId);
    }
    return true;
  }, signal);
}
