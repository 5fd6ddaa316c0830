import type { CadreEvent } from '../../events/types.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { RunEvent } from '../records.js';
import { parseStoredEvent, restoreEvent, wantsReply, type StoredEvent } from '../stored-event.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
import { insertOwnedEvents } from './owned-events.js';
import { replyOf } from './run-reply.js';
import { notify, RUN_CHANNEL } from './run-queue.js';

export function appendEvents(
  context: StoreContext,
  runId: string,
  events: readonly CadreEvent[],
  signal?: AbortSignal,
): Promise<RunEvent[]> {
  if (events.length === 0) return Promise.resolve([]);
  return writeTransaction(
    context,
    async (db) => {
      // Reserving the seq range on the run row also serialises appenders of one run.
      const run = await db
        .updateTable('runs')
        .set((eb) => ({ event_seq: eb('event_seq', '+', events.length) }))
        .where('id', '=', runId)
        .returning('event_seq')
        .executeTakeFirst();
      if (run === undefined) throw new ValidationError([{ path: 'runId', message: 'no such run' }]);
      const first = Number(run.event_seq) - events.length + 1;
      const time = now();
      const stored = events.map((event, index) => ({ ...event, runId, seq: first + index }));
      await insertOwnedEvents(db, context.dialect, runId, { firstSeq: first, events }, time);
      await notify(db, context, RUN_CHANNEL, runId);
      return stored.map((event) => ({ runId, seq: event.seq, type: event.type, event }));
    },
    signal,
  );
}

export async function readEvents(
  context: StoreContext,
  runId: string,
  options: { after?: number; limit?: number },
  signal?: AbortSignal,
): Promise<RunEvent[]> {
  const rows = await context.db
    .selectFrom('run_events')
    .select(['seq', 'type', 'json'])
    .where('run_id', '=', runId)
    .where('seq', '>', options.after ?? 0)
    .orderBy('seq')
    .limit(options.limit ?? 1000)
    .execute({ signal });
  const stored = rows.map((row) => parseStoredEvent(row.json));
  // A final result may point at the run's reply for its answer: read it once for the batch.
  const reply = stored.some(wantsReply) ? await replyOf(context.db, runId, signal) : undefined;
  return rows.map((row, index) => ({
    runId,
    seq: Number(row.seq),
    type: row.type,
    event: restoreEvent(stored[index] as StoredEvent, reply),
  }));
}
