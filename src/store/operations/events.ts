import type { CadreEvent } from '../../events/types.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { RunEvent } from '../records.js';
import type { RunEventRow } from '../schema/database.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
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
      const rows: RunEventRow[] = stored.map((event) => ({
        run_id: runId,
        seq: event.seq,
        type: event.type,
        json: JSON.stringify(event),
        created_at: time,
      }));
      await db.insertInto('run_events').values(rows).execute();
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
  return rows.map((row) => ({
    runId,
    seq: Number(row.seq),
    type: row.type,
    event: JSON.parse(row.json) as CadreEvent,
  }));
}
